import AssetsKit
import FolderLibrary
import Foundation
@testable import IndexedLibrary
import Testing
import TestSupport

@Suite("Indexing the shared corpus")
struct IndexingTests {
    @Test("each directory holds what FolderLibrary finds there; bad files are failures with reasons", arguments: IndexEngine.allCases)
    func corpusMatchesFolderLibrary(_ engine: IndexEngine) async throws {
        let tree = try TemporaryTree.corpusCopy(engine: engine)
        defer { tree.remove() }
        let library = try await tree.openLibrary()
        let summary = try await library.scan()
        let folder = FolderLibrary(root: tree.root)

        let folderScan = try await folder.scan(FolderLibrary.cameraRollID, filter: .all)
        #expect(summary.scanned == folderScan.assets.count + summary.failed.count)
        #expect(summary.added == folderScan.assets.count)
        #expect(Set(summary.failed.map(\.path)) == Set(folderScan.skipped.map(\.path)))
        #expect(summary.failed.allSatisfy { !$0.reason.isEmpty })
        #expect(summary.failed.contains { $0.path.hasPrefix("D_hostile/") })

        let indexedDirectories = try await library.collections().filter { $0.kind == .directory }
        let folderDirectories = try await folder.collections().filter { $0.kind == .directory }
        #expect(indexedDirectories.map(\.title) == folderDirectories.map(\.title))
        for (indexed, listed) in zip(indexedDirectories, folderDirectories) {
            for filter in MediaFilter.allCases {
                let expected = try await folder.assetCount(in: listed.id, filter: filter)
                #expect(try await library.assetCount(in: indexed.id, filter: filter) == expected, "\(indexed.title) \(filter)")
            }
        }
        let failures = try await library.integer("SELECT COUNT(*) FROM scan_failure")
        #expect(failures == summary.failed.count)
    }

    @Test("an asset has its FolderLibrary UUID; its legacy URL and local identifier both resolve", arguments: IndexEngine.allCases)
    func sameUUIDAsFolderLibrary(_ engine: IndexEngine) async throws {
        let tree = try TemporaryTree.corpusCopy(engine: engine)
        defer { tree.remove() }
        let library = try await tree.openLibrary()
        try await library.scan()
        let folder = FolderLibrary(root: tree.root)
        let folderAssets = try await collect(folder.assets(in: FolderLibrary.cameraRollID, options: FetchOptions()))
        let sony = try #require(folderAssets.first { $0.filename == "jhead__sony.jpg" })
        guard case .legacy(let legacyURL) = sony.id else { Issue.record("FolderLibrary gave \(sony.id)"); return }

        let gone = AssetIdentifier.local(LocalIdentifier(uuid: UUID()))
        let lookup = try await library.assets(withIdentifiers: [sony.id, gone, .local(legacyURL.localIdentifier)])
        #expect(lookup.found.map(\.filename) == ["jhead__sony.jpg", "jhead__sony.jpg"])
        #expect(lookup.found.first?.id == .local(legacyURL.localIdentifier))
        #expect(lookup.missing == [gone])
        #expect(lookup.found.first?.creationDate == sony.creationDate)
        #expect(lookup.found.first?.pixelSize == sony.pixelSize)

        let everyUUID = try await collect(library.assets(in: SmartAlbum.all.collectionIdentifier, options: FetchOptions())).map(\.id.uuid)
        #expect(Set(everyUUID) == Set(folderAssets.map(\.id.uuid)))
    }

    @Test("reopening the library keeps assets, collections and counts, with nothing read again", arguments: IndexEngine.allCases)
    func reopen(_ engine: IndexEngine) async throws {
        let tree = try TemporaryTree.corpusCopy(engine: engine)
        defer { tree.remove() }
        let first = try await tree.openLibrary()
        try await first.scan()
        let collections = try await first.collections()
        let ids = try await collect(first.assets(in: SmartAlbum.all.collectionIdentifier, options: FetchOptions())).map(\.id)

        let reader = CountingReader()
        let reopened = try await tree.openLibrary(reader: reader)
        #expect(try await reopened.collections() == collections)
        #expect(try await collect(reopened.assets(in: SmartAlbum.all.collectionIdentifier, options: FetchOptions())).map(\.id) == ids)
        let rescan = try await reopened.scan()
        #expect(reader.readPaths.isEmpty)
        #expect(rescan.added == 0 && rescan.updated == 0 && rescan.removed == 0 && rescan.moved == 0)
        #expect(FileManager.default.fileExists(atPath: tree.indexURL.path) == (engine == .sqlite), "a SQLite index is a file; a PostgreSQL one is not")
    }

    @Test("collections: All Photos first, then the smart albums, then the directories", arguments: IndexEngine.allCases)
    func collectionOrder(_ engine: IndexEngine) async throws {
        let tree = try TemporaryTree.corpusCopy(engine: engine)
        defer { tree.remove() }
        let library = try await tree.openLibrary()
        try await library.scan()
        let collections = try await library.collections()
        #expect(collections.first?.kind == .cameraRoll)
        #expect(collections.first?.id == CollectionIdentifier("smart:all"))
        #expect(collections.prefix(5).map(\.title) == ["All Photos", "Favorites", "Videos", "Recently Added", "Recently Deleted"])
        #expect(collections.dropFirst(5).map(\.title) == ["A_camera_exif", "B_orientation", "C_pngsuite", "D_hostile", "E_formats"])
        #expect(collections.dropFirst(5).allSatisfy { $0.id.rawValue.hasPrefix("directory:") })
        #expect(try await library.cameraRoll().estimatedAssetCount == collections.first?.estimatedAssetCount)
        await #expect(throws: LibraryError.self) { try await library.assetCount(in: CollectionIdentifier("album:nope"), filter: .all) }
    }

    @Test("a file is rendered at exactly the size asked for; its original is the file in place", arguments: IndexEngine.allCases)
    func imagesAndOriginals(_ engine: IndexEngine) async throws {
        let tree = try TemporaryTree.corpusCopy(engine: engine)
        defer { tree.remove() }
        let library = try await tree.openLibrary(diskCacheBytes: 16 << 20)
        try await library.scan()
        let asset = try #require(try await collect(library.assets(in: SmartAlbum.all.collectionIdentifier, options: FetchOptions()))
            .first { $0.filename == "goexif__sample1.jpg" }) // 500x375
        let image = try await library.finalImage(for: asset, request: ImageRequest(targetSize: PixelSize(width: 200, height: 200), contentMode: .fill))
        #expect(image.pixelSize == PixelSize(width: 200, height: 200))
        let fitted = try await library.finalImage(for: asset, request: ImageRequest(targetSize: PixelSize(width: 100, height: 100)))
        #expect(fitted.pixelSize == PixelSize(width: 100, height: 75))
        let original = try await library.originalFile(for: asset)
        #expect(original.file.resolvedPath == tree.url("A_camera_exif/goexif__sample1.jpg").resolvingSymlinksInPath().path)
        #expect(original.contentType == "image/jpeg")
        let cache = tree.indexURL.deletingLastPathComponent().appendingPathComponent("cache")
        let cached = try FileManager.default.contentsOfDirectory(atPath: cache.path)
        #expect(!cached.isEmpty)
    }
}
