import AssetsKit
import Foundation
import GRDB
@testable import IndexedLibrary
import Testing

@Suite("Counts kept by triggers (schema v3) equal counting the rows")
struct CountTests {
    @Test("after inserts, favourites, hides, deletions, moves between directories and row removals")
    func triggerCountsMatchRows() async throws {
        let tree = try TemporaryTree()
        defer { tree.remove() }
        let library = try IndexedLibrary(root: tree.root, databaseURL: tree.indexURL)
        try await library.insertSyntheticAssets(700, in: "one")
        try await library.insertSyntheticAssets(300, in: "two")
        try await library.database.pool.write { db in
            let two = try Int64.fetchOne(db, sql: "SELECT id FROM directory WHERE relativePath = 'two'")
            try db.execute(sql: "UPDATE asset SET isFavorite = NOT isFavorite WHERE id % 11 = 0")
            try db.execute(sql: "UPDATE asset SET isHidden = 1 WHERE id % 13 = 0")
            try db.execute(sql: "UPDATE asset SET deletedAt = 1 WHERE id % 17 = 0")
            try db.execute(sql: "UPDATE asset SET directoryId = ?, mediaType = 1 - mediaType WHERE id % 19 = 0", arguments: [two])
            try db.execute(sql: "DELETE FROM asset WHERE id % 23 = 0")
            try db.execute(sql: "UPDATE asset SET deletedAt = NULL WHERE id % 34 = 0")
        }
        var collections = [SmartAlbum.all, .favorites, .videos].map(\.collectionIdentifier)
        collections += try await library.collections().filter { $0.kind == .directory }.map(\.id)
        #expect(collections.count == 5)
        for collection in collections {
            for filter in MediaFilter.allCases {
                let maintained = try await library.assetCount(in: collection, filter: filter)
                let counted = try await library.database.pool.read { db in
                    var query = try AssetQuery(collection, filter: filter, recentlyAddedSince: Date(), in: db)
                    query.countConditions = nil
                    return try query.count(db)
                }
                #expect(maintained == counted, "\(collection.rawValue) \(filter)")
                let isEmptyByDefinition = collection == SmartAlbum.videos.collectionIdentifier && filter == .photo
                #expect(counted > 0 || isEmptyByDefinition, "\(collection.rawValue) \(filter)")
            }
        }
        for directory in try await library.collections().filter({ $0.kind == .directory }) {
            #expect(try await directory.estimatedAssetCount == library.assetCount(in: directory.id, filter: .all))
        }
    }
}
