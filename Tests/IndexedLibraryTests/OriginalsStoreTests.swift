import AssetsKit
import Foundation
import IndexedLibrary
import Testing

/// The seam between an indexed library and where its originals are kept: everything the
/// library reads or writes of an original goes through its ``OriginalsStore``.
@Suite("An indexed library's originals go through its store")
struct OriginalsStoreTests {
    @Test("originals and renders are read from the file the store hands out", arguments: IndexEngine.allCases)
    func reads(_ engine: IndexEngine) async throws {
        let tree = try RescanTests.makeTree(engine: engine)
        defer { tree.remove() }
        let store = RecordingOriginals(root: tree.root)
        let library = try await tree.openLibrary(originals: store)
        try await library.scan()
        let assets = try await collect(library.assets(in: SmartAlbum.all.collectionIdentifier, options: FetchOptions()))
        let sony = try #require(assets.first { $0.filename == "sony.jpg" })
        let sample = try #require(assets.first { $0.filename == "sample.jpg" })

        #expect(try await library.originalFile(for: sony).file.resolvedPath == tree.url("2019/sony.jpg").resolvingSymlinksInPath().path)
        _ = try await library.finalImage(for: sample, request: ImageRequest(targetSize: PixelSize(width: 64, height: 64)))
        #expect(store.calls == ["original 2019/sony.jpg", "original 2019/sample.jpg"])
    }

    @Test("an import is staged, then published in its transaction; purged, it is removed; a refused batch takes its copy back", arguments: IndexEngine.allCases)
    func writes(_ engine: IndexEngine) async throws {
        let tree = try RescanTests.makeTree(engine: engine)
        defer { tree.remove() }
        let store = RecordingOriginals(root: tree.root)
        let library = try await tree.openLibrary(originals: store)
        try await library.scan()

        let imported = try await library.performChanges([.importFile(tree.url("2020/olympus.jpg"))]).insertedAssets[0]
        let published = try #require(store.calls.last)
        #expect(store.calls.first == "stage olympus.jpg")
        #expect(published.hasPrefix("publish Imports/") && published.hasSuffix("/olympus.jpg"), "\(store.calls)")
        let path = String(published.dropFirst("publish ".count))
        #expect(FileManager.default.fileExists(atPath: tree.url(path).path))

        try await library.performChanges([.delete([imported])])
        try await library.performChanges([.purge([imported])])
        #expect(store.calls.last == "remove \(path)")
        #expect(!FileManager.default.fileExists(atPath: tree.url(path).path))

        let unknown = AssetIdentifier.local(LocalIdentifier(uuid: UUID()))
        await #expect(throws: LibraryError.self) {
            try await library.performChanges([.importFile(tree.url("2019/sony.jpg")), .setHidden([unknown], true)])
        }
        let refused = store.calls.suffix(4)
        #expect(refused.first == "stage sony.jpg" && refused.dropFirst(2).first == "discard", "\(store.calls)")
        let copy = String(try #require(refused.dropFirst().first).dropFirst("publish ".count))
        #expect(refused.last == "remove \(copy)")
        #expect(!FileManager.default.fileExists(atPath: tree.url(copy).path))
    }
}
