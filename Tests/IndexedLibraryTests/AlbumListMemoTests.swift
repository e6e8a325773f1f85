import AssetsKit
import Foundation
@testable import IndexedLibrary
import Testing

@Suite("The album list kept while the index is unchanged")
struct AlbumListMemoTests {
    @Test("a change made through another library on the same index reaches the album list and its key assets", arguments: IndexEngine.allCases)
    func anotherProcessesChangeIsSeen(_ engine: IndexEngine) async throws {
        let fixture = try await ChangeFixture(engine)
        defer { fixture.tree.remove() }
        let library = fixture.library
        let sony = try await fixture.asset("sony.jpg"), sample = try await fixture.asset("sample.jpg")
        let album = try await library.performChanges([.createAlbum(title: "Kept")]).insertedCollections[0]
        try await library.performChanges([.addAssets([sony.id], toAlbum: album)])

        // Read twice (the second from memory), then change the index as another process would.
        for _ in 0..<2 {
            #expect(try await library.collections().first { $0.id == album }?.estimatedAssetCount == 1)
            #expect(try await library.albumSummaries(filter: .photo).first { $0.collection.id == album }?.keyAsset?.id == sony.id)
        }
        let other = try await fixture.tree.openLibrary()
        try await other.performChanges([.addAssets([sample.id], toAlbum: album), .renameCollection(album, title: "Changed")])
        try await other.performChanges([.setHidden([sony.id], true)])

        let listed = try #require(try await library.collections().first { $0.id == album })
        #expect(listed.title == "Changed" && listed.estimatedAssetCount == 1)
        let summary = try #require(try await library.albumSummaries(filter: .photo).first { $0.collection.id == album })
        #expect(summary.count == 1 && summary.keyAsset?.id == sample.id)

        // A favourite set elsewhere reaches the key asset the list hands out.
        try await other.performChanges([.setFavorite([sample.id], true)])
        #expect(try await library.albumSummaries(filter: .photo).first { $0.collection.id == album }?.keyAsset?.isFavorite == true)
    }

    @Test("what was read at an older token is not kept over what was read at a newer one")
    func olderReadsDoNotReplaceNewer() {
        let memo = AlbumListMemo()
        let newer = [AssetCollection(id: CollectionIdentifier("album:new"), title: "New", kind: .album)]
        memo.keep(albums: newer, at: 7)
        memo.keep(albums: [], at: 6)
        #expect(memo.albums(at: 7) == newer)
        #expect(memo.albums(at: 6) == nil)
        memo.keep(summaries: [], filter: .photo, at: 7)
        #expect(memo.albums(at: 7) == newer && memo.summaries(.photo, at: 7) == [])
        memo.keep(summaries: [], filter: .all, at: 8)
        #expect(memo.albums(at: 8) == nil && memo.summaries(.photo, at: 8) == nil && memo.summaries(.all, at: 8) == [])
    }
}
