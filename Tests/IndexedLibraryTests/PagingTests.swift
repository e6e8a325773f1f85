import AssetsKit
import Foundation
import GRDB
@testable import IndexedLibrary
import Testing

@Suite("Paging a generated index of 5,000 assets")
struct PagingTests {
    static let total = 5_000
    let all = SmartAlbum.all.collectionIdentifier

    /// A library of ``total`` synthetic assets on `engine`.
    static func generated(_ engine: IndexEngine) async throws -> (TemporaryTree, IndexedLibrary) {
        let tree = try TemporaryTree(engine: engine)
        let library = try await tree.openLibrary()
        try await library.insertSyntheticAssets(total)
        return (tree, library)
    }

    @Test("sequential keyset pages give exactly the OFFSET pages, newest and oldest first", arguments: IndexEngine.allCases)
    func keysetEqualsOffset(_ engine: IndexEngine) async throws {
        let (tree, library) = try await Self.generated(engine)
        defer { tree.remove() }
        for order in DateOrder.allCases {
            let result = try await library.assets(in: all, options: FetchOptions(sortOrder: order))
            #expect(result.count == Self.total)
            var sequential: [Asset] = []
            for start in stride(from: 0, to: result.count, by: 60) {
                sequential += try await result.assets(in: start..<(start + 60))
            }
            #expect(sequential.count == Self.total)
            #expect(Set(sequential.map(\.id)).count == Self.total)
            let dates = sequential.map(\.creationDate)
            #expect(dates == (order == .newestFirst ? dates.sorted(by: >) : dates.sorted()))
            for position in stride(from: 0, to: Self.total, by: 397) {
                let single = try await library.assets(in: all, options: FetchOptions(sortOrder: order, limit: 1, offset: position))
                #expect(try await single.asset(at: 0).id == sequential[position].id, "\(order) at \(position)")
            }
        }
    }

    @Test("random access, limit and offset agree with iteration", arguments: IndexEngine.allCases)
    func limitAndOffset(_ engine: IndexEngine) async throws {
        let (tree, library) = try await Self.generated(engine)
        defer { tree.remove() }
        let everything = try await collect(library.assets(in: all, options: FetchOptions(sortOrder: .oldestFirst)))
        let window = try await library.assets(in: all, options: FetchOptions(sortOrder: .oldestFirst, limit: 120, offset: 4_950))
        #expect(window.count == 50)
        #expect(try await collect(window).map(\.id) == everything[4_950...].map(\.id))
        let middle = try await library.assets(in: all, options: FetchOptions(sortOrder: .oldestFirst, limit: 100, offset: 2_000))
        #expect(try await middle.assets(in: 40..<60).map(\.id) == everything[2_040..<2_060].map(\.id))
        #expect(try await middle.assets(in: 10..<20).map(\.id) == everything[2_010..<2_020].map(\.id)) // backwards: OFFSET again
        #expect(try await middle.assets(in: 20..<30).map(\.id) == everything[2_020..<2_030].map(\.id)) // continues by keyset
        await #expect(throws: LibraryError.self) { try await middle.asset(at: 100) }
    }

    @Test("media filters and smart albums count and page from the index", arguments: IndexEngine.allCases)
    func filters(_ engine: IndexEngine) async throws {
        let (tree, library) = try await Self.generated(engine)
        defer { tree.remove() }
        let videos = (0..<Self.total).filter { $0 % 7 == 0 }.count
        let favorites = (0..<Self.total).filter { $0 % 5 == 0 }.count
        #expect(try await library.assetCount(in: all, filter: .video) == videos)
        #expect(try await library.assetCount(in: all, filter: .photo) == Self.total - videos)
        #expect(try await library.assetCount(in: SmartAlbum.videos.collectionIdentifier, filter: .all) == videos)
        #expect(try await library.assetCount(in: SmartAlbum.videos.collectionIdentifier, filter: .photo) == 0)
        #expect(try await library.assetCount(in: SmartAlbum.favorites.collectionIdentifier, filter: .all) == favorites)
        let favoriteVideos = (0..<Self.total).filter { $0 % 35 == 0 }.count
        #expect(try await library.assetCount(in: SmartAlbum.favorites.collectionIdentifier, filter: .video) == favoriteVideos)
        let pagedVideos = try await collect(library.assets(in: SmartAlbum.videos.collectionIdentifier, options: FetchOptions()))
        #expect(pagedVideos.count == videos && pagedVideos.allSatisfy { $0.mediaType == .video })
        let collections = try await library.collections()
        #expect(collections.first { $0.id == SmartAlbum.favorites.collectionIdentifier }?.estimatedAssetCount == favorites)
        #expect(collections.first { $0.title == "synthetic" }?.estimatedAssetCount == Self.total)
    }

    @Test("Recently Added holds what was added in the last 30 days; hidden and deleted assets are left out", arguments: IndexEngine.allCases)
    func recentlyAddedHiddenDeleted(_ engine: IndexEngine) async throws {
        let (tree, library) = try await Self.generated(engine)
        defer { tree.remove() }
        try await library.insertSyntheticAssets(10, in: "older", addedAt: Date().addingTimeInterval(-31 * 86_400))
        #expect(try await library.assetCount(in: all, filter: .all) == Self.total + 10)
        #expect(try await library.assetCount(in: SmartAlbum.recentlyAdded.collectionIdentifier, filter: .all) == Self.total)
        try await library.executeSQL("UPDATE asset SET isHidden = TRUE WHERE id <= 3")
        try await library.executeSQL("UPDATE asset SET deletedAt = 1 WHERE id BETWEEN 4 AND 10")
        #expect(try await library.assetCount(in: all, filter: .all) == Self.total)
        #expect(try await library.assetCount(in: SmartAlbum.recentlyDeleted.collectionIdentifier, filter: .all) == 7)
        let deleted = try await collect(library.assets(in: SmartAlbum.recentlyDeleted.collectionIdentifier, options: FetchOptions()))
        #expect(try await library.assets(withIdentifiers: deleted.map(\.id)).missing.count == 7)
    }

    @Test("Recently Added pages hold exactly the recent assets, newest first, whether all, most or few are recent", arguments: IndexEngine.allCases, MediaFilter.allCases)
    func recentlyAddedPages(_ engine: IndexEngine, filter: MediaFilter) async throws {
        let (tree, library) = try await Self.generated(engine)
        defer { tree.remove() }
        let old = Date().addingTimeInterval(-31 * 86_400).timeIntervalSince1970
        for phase in ["all recent", "most recent", "few recent"] {
            if phase == "most recent" { try await library.insertSyntheticAssets(1_000, in: "older", addedAt: Date(timeIntervalSince1970: old)) }
            if phase == "few recent" {
                try await library.executeSQL("UPDATE asset SET addedAt = \(old) WHERE id % 10 != 0")
            }
            let everything = try await collect(library.assets(in: all, options: FetchOptions(mediaFilter: filter)))
            let added = try await library.index.records(uuids: everything.map(\.id.uuid))
            let expected = everything.map(\.id.uuid).filter { added[$0]!.addedAt > old + 86_400 }
            let recent = try await library.assets(in: SmartAlbum.recentlyAdded.collectionIdentifier, options: FetchOptions(mediaFilter: filter))
            #expect(try await collect(recent).map(\.id.uuid) == expected, "\(phase)")
            #expect(try await recent.assets(in: 0..<min(60, recent.count)).map(\.id.uuid) == Array(expected.prefix(60)), "\(phase)")
        }
    }

    @Test("counts and pages are answered from the browse indexes, never by sorting the table")
    func queryPlans() async throws {
        let (tree, library) = try await Self.generated(.sqlite)
        defer { tree.remove() }
        let plans = try await library.database.pool.read { db in
            let query = try AssetQuery(all, filter: .all, recentlyAddedSince: Date(), in: db)
            let keyset = "SELECT asset.* FROM asset WHERE \(query.conditions.joined(separator: " AND ")) AND (asset.creationDate, asset.id) < (1e10, 1) ORDER BY asset.creationDate DESC, asset.id DESC LIMIT 60"
            let video = try AssetQuery(all, filter: .video, recentlyAddedSince: Date(), in: db)
            let count = "SELECT COUNT(*) FROM asset WHERE \(video.conditions.joined(separator: " AND "))"
            return try [keyset, count].map { sql in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] as String }.joined(separator: " | ")
            }
        }
        #expect(plans[0].contains("asset_timeline") && !plans[0].contains("TEMP B-TREE"), "\(plans[0])")
        #expect(plans[1].contains("COVERING INDEX asset_media_timeline"), "\(plans[1])")
    }
}
