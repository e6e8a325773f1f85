import AssetsKit
import Foundation
@testable import IndexedLibrary
import Testing

@Suite("Change requests: albums and folders")
struct AlbumChangeTests {
    @Test("albums and folders are created, nested, renamed and deleted; deleting an album keeps its assets", arguments: IndexEngine.allCases)
    func createRenameDelete(_ engine: IndexEngine) async throws {
        let fixture = try await ChangeFixture(engine)
        defer { fixture.remove() }
        let library = fixture.library
        let folder = try await library.performChanges([.createFolder(title: "Trips")]).insertedCollections[0]
        let created = try await library.performChanges([
            .createAlbum(title: "Beijing", inFolder: folder), .createAlbum(title: "  Loose  "),
        ]).insertedCollections
        #expect(created.count == 2)
        let sony = try await fixture.asset("sony.jpg")
        try await library.performChanges([.addAssets([sony.id], toAlbum: created[0]), .renameCollection(created[0], title: "Peking")])

        let collections = try await library.collections()
        let peking = try #require(collections.first { $0.id == created[0] })
        #expect(peking.title == "Peking" && peking.kind == .album && peking.parentID == folder && peking.estimatedAssetCount == 1)
        #expect(collections.first { $0.id == folder }?.kind == .folder)
        #expect(collections.first { $0.id == created[1] }?.title == "Loose")

        await #expect(throws: LibraryError.self) { try await library.performChanges([.deleteCollection(folder)]) }
        await #expect(throws: LibraryError.self) { try await library.performChanges([.addAssets([sony.id], toAlbum: folder)]) }
        await #expect(throws: LibraryError.self) { try await library.performChanges([.renameCollection(SmartAlbum.all.collectionIdentifier, title: "X")]) }
        await #expect(throws: LibraryError.self) { try await library.performChanges([.createAlbum(title: " ", inFolder: nil)]) }
        try await library.performChanges([.deleteCollection(created[0]), .deleteCollection(folder)])
        #expect(try await library.collections().map(\.id).filter { [folder, created[0]].contains($0) }.isEmpty)
        #expect(try await library.assets(withIdentifiers: [sony.id]).found.count == 1)
        await #expect(throws: LibraryError.self) { try await library.assets(in: created[0], options: FetchOptions()) }
    }

    @Test("members are appended in order without duplicates, removed, and reordered; album order is listed on request", arguments: IndexEngine.allCases)
    func membershipAndOrder(_ engine: IndexEngine) async throws {
        let fixture = try await ChangeFixture(engine)
        defer { fixture.remove() }
        let library = fixture.library
        let album = try await library.performChanges([.createAlbum(title: "Best")]).insertedCollections[0]
        let sony = try await fixture.asset("sony.jpg"), sample = try await fixture.asset("sample.jpg")
        let olympus = try await fixture.asset("olympus.jpg"), clip = try await fixture.asset("clip.mp4")
        let legacySample = AssetIdentifier.legacy(LegacyAssetURL(uuid: sample.id.uuid, fileExtension: "JPG"))
        try await library.performChanges([.addAssets([olympus.id, sony.id], toAlbum: album)])
        try await library.performChanges([.addAssets([sony.id, legacySample, clip.id, olympus.id], toAlbum: album)])
        let inOrder = FetchOptions(albumOrder: true)
        #expect(try await fixture.filenames(in: album, options: inOrder) == ["olympus.jpg", "sony.jpg", "sample.jpg", "clip.mp4"])
        #expect(try await library.assetCount(in: album, filter: .all) == 4)

        try await library.performChanges([.reorderAssets([clip.id, sample.id], inAlbum: album)])
        #expect(try await fixture.filenames(in: album, options: inOrder) == ["clip.mp4", "sample.jpg", "olympus.jpg", "sony.jpg"])
        let page = FetchOptions(limit: 2, offset: 1, albumOrder: true)
        #expect(try await fixture.filenames(in: album, options: page) == ["sample.jpg", "olympus.jpg"])
        let byDate = try await collect(library.assets(in: album, options: FetchOptions(sortOrder: .oldestFirst)))
        #expect(byDate.map(\.creationDate) == byDate.map(\.creationDate).sorted())

        try await library.performChanges([.removeAssets([sample.id, sample.id], fromAlbum: album)])
        #expect(try await fixture.filenames(in: album, options: inOrder) == ["clip.mp4", "olympus.jpg", "sony.jpg"])
        await #expect(throws: LibraryError.self) { try await library.performChanges([.reorderAssets([sample.id], inAlbum: album)]) }
        #expect(try await fixture.count(.all) == 4)
    }
}
