import Foundation
import Testing
import TestSupport

@Suite("assets-picker index makes the photos' previews beside the index")
struct IndexPreviewsCommandTests {
    @Test("index --json reports the previews made and those that failed; they are beside the index, nothing is written into the library")
    func previewsBesideTheIndex() async throws {
        let copy = try CorpusCopy()
        defer { copy.remove() }
        let before = try FileManager.default.subpathsOfDirectory(atPath: copy.path).sorted()
        let result = try await CLI.run(["index", copy.path, "--json"])
        try #require(result.status == 0, "\(result)")
        let previews = try result.json().object("previews")
        #expect(try previews.int("made") > 40)
        #expect(try previews.objects("failed").contains { try $0.string("path") == "D_hostile/pillow__truncated_jpeg.jpg" })
        let folder = copy.defaultIndex.deletingLastPathComponent().appendingPathComponent("library-previews")
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".jpg") }
        #expect(try files.count == previews.int("made"))
        #expect(try FileManager.default.subpathsOfDirectory(atPath: copy.path).sorted() == before)

        let again = try await CLI.run(["index", copy.path, "--json"])
        #expect(try again.json().object("previews").int("made") == 0, "\(again)")
    }
}
