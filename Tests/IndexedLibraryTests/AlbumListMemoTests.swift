import AssetsKit
import Foundation
@testable import IndexedLibrary
import Synchronization
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

    @Test("each kind of change brings the kept list to what a whole read gives", arguments: IndexEngine.allCases)
    func changesArePutInPlace(_ engine: IndexEngine) async throws {
        let fixture = try await ChangeFixture(engine)
        defer { fixture.tree.remove() }
        let library = fixture.library
        let sony = try await fixture.asset("sony.jpg"), sample = try await fixture.asset("sample.jpg")
        let olympus = try await fixture.asset("olympus.jpg"), clip = try await fixture.asset("clip.mp4")
        let inserted = try await library.performChanges([.createAlbum(title: "One"), .createAlbum(title: "Two")]).insertedCollections
        let (one, two) = (inserted[0], inserted[1])
        try await library.performChanges([.addAssets([sony.id, clip.id], toAlbum: one), .addAssets([sony.id, olympus.id], toAlbum: two)])

        let steps: [(String, [ChangeRequest])] = [
            ("a member added", [.addAssets([sample.id], toAlbum: one)]),
            ("a member removed", [.removeAssets([sony.id], fromAlbum: one)]),
            ("an asset in two albums hidden", [.setHidden([sony.id], true)]),
            ("shown again", [.setHidden([sony.id], false)]),
            ("a key asset made a favourite", [.setFavorite([sony.id], true)]),
            ("a video deleted", [.delete([clip.id])]),
            ("restored", [.restore([clip.id])]),
            ("members reordered", [.reorderAssets([olympus.id, sony.id], inAlbum: two)]),
            ("a photo imported into an album", [.importFile(fixture.tree.url("2020/olympus.jpg"), intoAlbum: two)]),
            ("another", [.importFile(fixture.tree.url("2019/sony.jpg"), intoAlbum: one)]),
            ("an album renamed", [.renameCollection(two, title: "Renamed")]),
            ("an asset deleted", [.delete([olympus.id])]),
            ("purged", [.purge([olympus.id])]),
            ("an album deleted", [.deleteCollection(one)]),
        ]
        for (step, changes) in steps {
            // Read first, so that the list is kept at the token before the change.
            _ = try await library.collections()
            for filter in MediaFilter.allCases { _ = try await library.albumSummaries(filter: filter) }
            try await library.performChanges(changes)

            let whole = try await fixture.tree.openLibrary()
            #expect(try await library.collections() == whole.collections(), "\(step)")
            for filter in MediaFilter.allCases {
                #expect(try await library.albumSummaries(filter: filter) == whole.albumSummaries(filter: filter), "\(step), \(filter)")
            }
        }
    }

    @Test("a membership or an asset changed touches albums and directories; an album or directory made or gone, or many changes, read a part whole")
    func deltas() throws {
        let album = UUID(), directory = UUID(), asset = UUID()
        func change(_ kind: ChangeKind, asset: UUID? = nil, collection: CollectionIdentifier? = nil) -> RecordedChange {
            RecordedChange(token: 1, asset: asset, collection: collection, kind: kind)
        }
        let membership = try #require(AlbumListDelta([change(.inserted, asset: asset, collection: CollectionID.album(album)),
                                                      change(.removed, asset: asset, collection: CollectionID.directory(directory))]))
        #expect(membership.albums == [album] && membership.directories == [directory] && membership.assets.isEmpty)
        var itself = try #require(AlbumListDelta([change(.changed, asset: asset)]))
        #expect(itself.albums == [] && itself.directories == [] && itself.assets == [asset])
        let resolved = itself.resolve([(asset, album, directory), (asset, nil, directory)])
        #expect(resolved)
        #expect(itself.albums == [album] && itself.directories == [directory])
        var purged = try #require(AlbumListDelta([change(.removed, asset: asset)]))
        let purgedResolved = purged.resolve([])
        #expect(!purgedResolved)
        let albumMade = try #require(AlbumListDelta([change(.collection, collection: CollectionID.album(album))]))
        #expect(albumMade.albums == nil && albumMade.directories == [])
        let directoryGone = try #require(AlbumListDelta([change(.collection, collection: CollectionID.directory(directory))]))
        #expect(directoryGone.albums == [] && directoryGone.directories == nil)
        #expect(AlbumListDelta(Array(repeating: change(.changed, asset: asset), count: AlbumListDelta.limit)) != nil)
        #expect(AlbumListDelta(Array(repeating: change(.changed, asset: asset), count: AlbumListDelta.limit + 1)) == nil)
    }

    @Test("what was read at an older token is not kept over what was read at a newer one")
    func olderReadsDoNotReplaceNewer() {
        let memo = AlbumListMemo()
        let newer = [AssetCollection(id: CollectionIdentifier("album:new"), title: "New", kind: .album)]
        memo.keep(collections: newer, .albums, at: 7)
        memo.keep(collections: [], .albums, at: 6)
        #expect(memo.collections(.albums)?.token == 7 && memo.collections(.albums)?.rows == newer)
        #expect(memo.collections(.directories) == nil)
        memo.keep(summaries: [], .albums, filter: .photo, at: 8)
        memo.keep(summaries: [AlbumSummary(collection: newer[0], count: 1, keyAsset: nil)], .albums, filter: .photo, at: 7)
        #expect(memo.summaries(.albums, .photo)?.token == 8 && memo.summaries(.albums, .photo)?.rows == [])
        #expect(memo.summaries(.albums, .all) == nil && memo.summaries(.directories, .photo) == nil)
    }

    @Test("the changes since a kept token are read once for both parts, and again once the index moved on")
    func changesAreReadOncePerToken() throws {
        let memo = AlbumListMemo()
        let album = AssetCollection(id: CollectionIdentifier("album:a"), title: "A", kind: .album, estimatedAssetCount: 1)
        memo.keep(collections: [album], .albums, at: 5)
        memo.keep(collections: [], .directories, at: 5)
        let reads = Mutex<[Int64]>([])
        let changes: (Int64) -> AlbumListDelta? = { since in
            reads.withLock { $0.append(since) }
            return AlbumListDelta([])
        }
        var patches = 0
        func bringUp(_ part: AlbumListMemo.Part, to token: Int64) -> [AssetCollection] {
            memo.collections(part, at: token, changes: changes) { kept, _ in
                patches += 1
                return kept
            } whole: {
                Issue.record("read whole: the kept rows and the changes since were enough")
                return []
            }
        }
        #expect(bringUp(.albums, to: 7) == [album])
        #expect(bringUp(.directories, to: 7) == [])
        #expect(bringUp(.albums, to: 7) == [album], "kept at 7: neither read nor patched")
        #expect(reads.withLock { $0 } == [5])
        #expect(patches == 2)
        #expect(bringUp(.albums, to: 9) == [album])
        #expect(reads.withLock { $0 } == [5, 7])
    }
}
