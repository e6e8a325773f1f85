import AssetsKit
import Foundation
@testable import IndexedLibrary
import Testing
import TestSupport

@Suite("The indexed scan follows symbolic links only inside the library")
struct SymbolicLinkScanTests {
    @Test("a link to / and a link to a photo outside add nothing to the index", arguments: IndexEngine.allCases)
    func linksOut(_ engine: IndexEngine) async throws {
        let tree = try TemporaryTree(engine: engine)
        defer { tree.remove() }
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("outside-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: outside) }
        try FileManager.default.copyItem(at: Corpus.file("A_camera_exif/goexif__sample1.jpg"), to: outside.appendingPathComponent("outside.jpg"))
        try tree.copy("A_camera_exif/jhead__sony.jpg", to: "Inside/inside.jpg")
        try FileManager.default.createSymbolicLink(atPath: tree.url("everything").path, withDestinationPath: "/")
        try FileManager.default.createSymbolicLink(atPath: tree.url("neighbour").path, withDestinationPath: outside.path)

        let library = try await tree.openLibrary()
        let summary = try await library.scan()
        #expect(summary.added == 1)
        let assets = try await collect(library.assets(in: SmartAlbum.all.collectionIdentifier, options: FetchOptions()))
        #expect(assets.map(\.filename) == ["inside.jpg"])
    }
}
