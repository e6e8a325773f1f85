import Foundation
import Testing
import TestSupport

@Suite("assets-picker index leaves previews to the background; index --previews makes them beside the index")
struct IndexPreviewsCommandTests {
    @Test("index makes the previews of its newest photos only (--newest-previews) and leaves the rest; with 0, none; the library lists at once")
    func indexLeavesPreviews() async throws {
        let copy = try CorpusCopy()
        defer { copy.remove() }
        let folder = copy.defaultIndex.deletingLastPathComponent().appendingPathComponent("library-previews")
        let none = try await CLI.run(["index", copy.path, "--json", "--newest-previews", "0"])
        try #require(none.status == 0, "\(none)")
        #expect(try !none.json().keys.contains("previews") && !none.json().keys.contains("newestPreviews"))
        #expect(!FileManager.default.fileExists(atPath: folder.path))
        let listing = try await CLI.run(["assets", "--library", copy.path, "--limit", "5", "--json"])
        #expect(listing.status == 0, "\(listing)")

        // A fresh index of the same folder: the newest 5 photos that lack one get theirs at once.
        let again = try CorpusCopy()
        defer { again.remove() }
        let result = try await CLI.run(["index", again.path, "--json", "--newest-previews", "5"])
        try #require(result.status == 0, "\(result)")
        let newest = try result.json().object("newestPreviews")
        #expect(try newest.int("made") + newest.objects("failed").count == 5, "\(result)")
        #expect(!(try result.json().keys.contains("previews")))
        let made = again.defaultIndex.deletingLastPathComponent().appendingPathComponent("library-previews")
        let files = try FileManager.default.subpathsOfDirectory(atPath: made.path).filter { $0.hasSuffix(".jpg") }
        #expect(try files.count == newest.int("made"))
        // The rest are made by --previews (or serve): more than the five.
        let all = try await CLI.run(["index", again.path, "--previews", "--json"])
        #expect(try all.json().object("previews").int("made") > 30, "\(all)")
    }

    @Test("index --previews --json waits for the previews and reports those made and those that failed; they are beside the index, nothing is written into the library")
    func previewsBesideTheIndex() async throws {
        let copy = try CorpusCopy()
        defer { copy.remove() }
        let before = try FileManager.default.subpathsOfDirectory(atPath: copy.path).sorted()
        let result = try await CLI.run(["index", copy.path, "--previews", "--json"])
        try #require(result.status == 0, "\(result)")
        let previews = try result.json().object("previews")
        #expect(try previews.int("made") > 40)
        #expect(try previews.objects("failed").contains { try $0.string("path") == "D_hostile/pillow__truncated_jpeg.jpg" })
        let folder = copy.defaultIndex.deletingLastPathComponent().appendingPathComponent("library-previews")
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".jpg") }
        #expect(try files.count == previews.int("made"))
        #expect(try FileManager.default.subpathsOfDirectory(atPath: copy.path).sorted() == before)

        let again = try await CLI.run(["index", copy.path, "--previews", "--json"])
        let unchanged = try again.json().object("previews")
        #expect(try unchanged.int("made") == 0, "\(again)")
        #expect(try unchanged.int("unchanged") == previews.int("made") + previews.int("unchanged"), "\(again)")
    }
}
