import AssetsKit
import Foundation
@testable import IndexedLibrary
import Testing

@Suite("Change requests: favourites, hidden, delete, restore, purge")
struct AssetStateTests {
    @Test("favourites fill Favorites; hidden assets leave every listing and count", arguments: IndexEngine.allCases)
    func favoritesAndHidden(_ engine: IndexEngine) async throws {
        let fixture = try await ChangeFixture(engine)
        defer { fixture.remove() }
        let sony = try await fixture.asset("sony.jpg"), clip = try await fixture.asset("clip.mp4")
        try await fixture.library.performChanges([.setFavorite([sony.id, clip.id], true)])
        #expect(try await fixture.count(.favorites) == 2)
        #expect(try await fixture.count(.favorites, .video) == 1)
        #expect(try await fixture.library.assets(withIdentifiers: [sony.id]).found.first?.isFavorite == true)

        try await fixture.library.performChanges([.setHidden([clip.id], true), .setFavorite([sony.id], false)])
        #expect(try await fixture.count(.favorites) == 0)
        #expect(try await fixture.count(.videos) == 0)
        #expect(try await fixture.count(.all) == 3)
        let directories = try await fixture.library.collections().filter { $0.kind == .directory }
        #expect(directories.map(\.estimatedAssetCount) == [2, 1])
        try await fixture.library.performChanges([.setHidden([clip.id], false)])
        #expect(try await fixture.count(.videos) == 1)
        #expect(try await fixture.count(.favorites) == 1)
    }

    @Test("delete moves assets to Recently Deleted, out of albums and counts; restore brings them back", arguments: IndexEngine.allCases)
    func deleteAndRestore(_ engine: IndexEngine) async throws {
        let fixture = try await ChangeFixture(engine)
        defer { fixture.remove() }
        let library = fixture.library
        let sony = try await fixture.asset("sony.jpg"), clip = try await fixture.asset("clip.mp4")
        let album = try await library.performChanges([.createAlbum(title: "A")]).insertedCollections[0]
        try await library.performChanges([.addAssets([sony.id, clip.id], toAlbum: album), .setFavorite([sony.id], true)])
        try await library.performChanges([.delete([sony.id, clip.id])])
        #expect(try await fixture.count(.all) == 2)
        #expect(try await fixture.count(.recentlyDeleted) == 2)
        #expect(try await fixture.count(.favorites) == 0)
        #expect(try await fixture.count(.videos) == 0)
        #expect(try await library.assetCount(in: album, filter: .all) == 0)
        #expect(try await library.assets(withIdentifiers: [sony.id]).missing == [sony.id])
        #expect(try await fixture.filenames(in: SmartAlbum.recentlyDeleted.collectionIdentifier).sorted() == ["clip.mp4", "sony.jpg"])

        try await library.performChanges([.restore([sony.id])])
        #expect(try await fixture.count(.all) == 3)
        #expect(try await fixture.count(.recentlyDeleted) == 1)
        #expect(try await fixture.filenames(in: album, options: FetchOptions(albumOrder: true)) == ["sony.jpg"])
        #expect(try await fixture.count(.favorites) == 1)
        #expect(try await library.scan().removed == 0)
    }

    @Test("purge removes an imported file, forgets an adopted original without touching it, and a rescan does not adopt it again", arguments: IndexEngine.allCases)
    func purge(_ engine: IndexEngine) async throws {
        let fixture = try await ChangeFixture(engine)
        defer { fixture.remove() }
        let library = fixture.library
        let sony = try await fixture.asset("sony.jpg")
        let originalBytes = try Data(contentsOf: fixture.tree.url("2019/sony.jpg"))
        let imported = try await library.performChanges([.importFile(fixture.tree.url("2020/olympus.jpg"))]).insertedAssets[0]
        let importedURL = try await library.originalFile(for: try #require(try await library.assets(withIdentifiers: [imported]).found.first)).file.resolvedPath

        await #expect(throws: LibraryError.self) { try await library.performChanges([.purge([sony.id])]) }
        try await library.performChanges([.delete([sony.id, imported])])
        try await library.performChanges([.purge([sony.id, imported])])
        #expect(!FileManager.default.fileExists(atPath: importedURL))
        #expect(try Data(contentsOf: fixture.tree.url("2019/sony.jpg")) == originalBytes)
        #expect(try await fixture.count(.recentlyDeleted) == 0)
        #expect(try await fixture.count(.all) == 3)

        let rescan = try await library.scan()
        #expect(rescan.added == 0 && rescan.removed == 0)
        #expect(try await fixture.count(.all) == 3)
        #expect(try await library.assets(withIdentifiers: [sony.id, imported]).found.isEmpty)
        #expect(try Data(contentsOf: fixture.tree.url("2019/sony.jpg")) == originalBytes)

        try FileManager.default.removeItem(at: fixture.tree.url("2019/sony.jpg"))
        try await library.scan()
        try FileManager.default.copyItem(at: fixture.tree.url("2019/sample.jpg"), to: fixture.tree.url("2019/sony.jpg"))
        #expect(try await library.scan().added == 1)
    }
}
