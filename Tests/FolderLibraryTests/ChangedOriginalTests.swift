import AssetsKit
import FolderLibrary
import Foundation
import LibraryTree
import Testing

/// A folder library reads an original only as the version it read when it listed it: a file
/// rewritten in place since (its folder's stamp untouched) answers as changed, and is read
/// again by the next listing.
@Suite("A folder library's originals are the version it read")
struct ChangedOriginalTests {
    @Test("a file rewritten in place answers missing or changed, to renders too; the next listing has its new version")
    func rewrittenInPlace() async throws {
        let tree = try AlbumTree()
        defer { tree.remove() }
        // A clock an hour ahead: every listing is settled, so an unchanged stamp is trusted.
        let library = FolderLibrary(root: tree.root, cacheFile: nil, metadataReading: nil, now: AlbumTree.hourAhead)
        let roll = try await library.cameraRoll().id
        let top = try #require(try await library.assets(withIdentifiers: [
            .local(LocalIdentifier(uuid: AssetUUID.forFile(atRelativePath: "top.jpg"))),
        ]).found.first)
        _ = try await library.assets(in: roll, options: FetchOptions())

        // Written in place, as `cp` over it does: the folder keeps its stamp.
        let other = try Data(contentsOf: tree.root.appendingPathComponent("Trip/one.jpg"))
        let handle = try FileHandle(forWritingTo: tree.root.appendingPathComponent("top.jpg"))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: other)
        try handle.close()

        await #expect(throws: LibraryError.originalUnavailable(file: "top.jpg")) { try await library.originalFile(for: top) }
        await #expect(throws: LibraryError.originalUnavailable(file: "top.jpg")) {
            try await library.finalImage(for: top, request: ImageRequest(targetSize: PixelSize(width: 32, height: 32)))
        }
        let listed = try await library.assets(in: roll, options: FetchOptions())
        let again = try #require(try await listed.assets(in: 0..<listed.count).first { $0.filename == "top.jpg" })
        #expect(again.byteSize == Int64(other.count))
        let original = try await library.originalFile(for: again)
        #expect(original.byteSize == Int64(other.count))
        #expect(try withExtendedLifetime(original) { try Data(contentsOf: original.file.url) } == other)
    }
}
