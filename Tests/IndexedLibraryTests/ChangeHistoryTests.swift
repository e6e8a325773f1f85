import AssetsKit
import Foundation
@testable import IndexedLibrary
import Testing

@Suite("Change requests: tokens and live changes")
struct ChangeHistoryTests {
    @Test("changes(since:) from a new instance on the same index reports exactly what each collection gained, lost and changed", arguments: IndexEngine.allCases)
    func changesAcrossReopen(_ engine: IndexEngine) async throws {
        let fixture = try await ChangeFixture(engine)
        defer { fixture.remove() }
        let sony = try await fixture.asset("sony.jpg"), sample = try await fixture.asset("sample.jpg")
        let album = try await fixture.library.performChanges([.createAlbum(title: "A")]).insertedCollections[0]
        try await fixture.library.performChanges([.addAssets([sample.id], toAlbum: album)])
        let start = try await fixture.token()
        let result = try await fixture.library.performChanges([
            .importFile(fixture.tree.url("2020/olympus.jpg"), intoAlbum: album), .setFavorite([sample.id], true), .delete([sony.id]),
        ])
        #expect(result.token > start)
        #expect(try await fixture.token() == result.token)
        let imported = result.insertedAssets[0]

        let reopened = try await fixture.tree.openLibrary()
        let change = try await reopened.changes(since: start)
        #expect(change.token == result.token)
        #expect(change.insertedAssets == [imported])
        #expect(change.removedAssets == [sony.id])
        #expect(change.changedAssets == [sample.id])
        let all = try #require(change.collections[SmartAlbum.all.collectionIdentifier])
        #expect(all == CollectionChange(inserted: [imported], removed: [sony.id], changed: [sample.id]))
        #expect(change.collections[SmartAlbum.favorites.collectionIdentifier] == CollectionChange(inserted: [sample.id]))
        #expect(change.collections[SmartAlbum.recentlyDeleted.collectionIdentifier] == CollectionChange(inserted: [sony.id]))
        #expect(change.collections[album] == CollectionChange(inserted: [imported], changed: [sample.id]))
        #expect(try await reopened.changes(since: result.token).isEmpty)
    }

    @Test("the live stream delivers a performChanges as it commits, even right after subscribing", arguments: IndexEngine.allCases)
    func liveStream(_ engine: IndexEngine) async throws {
        let fixture = try await ChangeFixture(engine)
        defer { fixture.remove() }
        let clip = try await fixture.asset("clip.mp4")
        // No pause: a change committed right after subscribing belongs to the stream.
        var iterator = fixture.library.changes().makeAsyncIterator()
        let result = try await fixture.library.performChanges([.setHidden([clip.id], true)])
        var received = LibraryChange(token: ChangeToken(0))
        while received.token < result.token, let next = await iterator.next() { received = next }
        #expect(received.token == result.token)
        #expect(received.changedAssets == [clip.id])
        #expect(received.collections[SmartAlbum.videos.collectionIdentifier] == CollectionChange(removed: [clip.id]))
    }

    @Test("another instance's commits on the same index (another server) reach the live stream", arguments: IndexEngine.allCases)
    func otherInstance(_ engine: IndexEngine) async throws {
        let fixture = try await ChangeFixture(engine)
        defer { fixture.remove() }
        let other = try await fixture.tree.openLibrary()
        let clip = try await fixture.asset("clip.mp4")
        var iterator = fixture.library.changes().makeAsyncIterator()
        let result = try await other.performChanges([.setFavorite([clip.id], true)])
        var received = LibraryChange(token: ChangeToken(0))
        while received.token < result.token, let next = await iterator.next() { received = next }
        #expect(received.token == result.token)
        #expect(received.changedAssets == [clip.id])
        #expect(received.collections[SmartAlbum.favorites.collectionIdentifier] == CollectionChange(inserted: [clip.id]))
    }
}
