import AssetsKit
import Foundation
import GRDB

/// The smart albums' rows of the album list (see ``AlbumSummaryQuery``): counts and key assets
/// in a fixed number of statements.
///
/// All Photos, Favorites and Videos are counted, unfiltered and under the filter, from one read
/// of `asset_count` (a few rows per directory); Recently Added and Recently Deleted as
/// ``AssetQuery`` counts them. When every visible asset was added since Recently Added's cut-off,
/// as on the day a library is first indexed, Recently Added holds exactly All Photos, and its key
/// asset is All Photos' one.
enum SmartAlbumSummaries {
    static func summaries(filter: MediaFilter, recentlyAddedSince since: Date, in db: Database) throws -> [AlbumSummary] {
        let visible = try VisibleCounts(in: db)
        let everythingRecent = try AssetQuery.isEverythingAdded(since: since, in: db)
        var summaries: [AlbumSummary] = []
        for smart in SmartAlbum.allCases {
            let id = smart.collectionIdentifier
            var total: Int, count: Int
            switch smart {
            case .all: (total, count) = (visible.all(.all), visible.all(filter))
            case .favorites: (total, count) = (visible.favorites(.all), visible.favorites(filter))
            case .videos: (total, count) = (visible.all(.video), filter == .photo ? 0 : visible.all(.video))
            case .recentlyAdded, .recentlyDeleted:
                total = try AssetQuery(id, filter: .all, recentlyAddedSince: since, in: db).count(db)
                count = filter == .all ? total : try AssetQuery(id, filter: filter, recentlyAddedSince: since, in: db).count(db)
            }
            var key: Asset?
            if count > 0 {
                if smart == .recentlyAdded, everythingRecent {
                    key = summaries[0].keyAsset
                } else if smart == .recentlyAdded {
                    key = try oldestRecentlyAdded(since: since, filter: filter, most: count * 2 >= visible.all(filter), in: db)
                } else {
                    let query = try AssetQuery(id, filter: filter, recentlyAddedSince: since, in: db)
                    key = try query.page(db, order: .oldestFirst, after: nil, offset: 0, limit: 1).first?.asset
                }
            }
            summaries.append(AlbumSummary(collection: smart.collection(count: total), count: count, keyAsset: key))
        }
        return summaries
    }

    /// The collections of the smart albums, All Photos first, with their unfiltered counts.
    static func collections(recentlyAddedSince since: Date, in db: Database) throws -> [AssetCollection] {
        let visible = try VisibleCounts(in: db)
        return try SmartAlbum.allCases.map { smart in
            switch smart {
            case .all: smart.collection(count: visible.all(.all))
            case .favorites: smart.collection(count: visible.favorites(.all))
            case .videos: smart.collection(count: visible.all(.video))
            case .recentlyAdded, .recentlyDeleted:
                smart.collection(count: try AssetQuery(smart.collectionIdentifier, filter: .all, recentlyAddedSince: since, in: db).count(db))
            }
        }
    }

    /// The oldest visible asset added since `since`. When `most` assets were (at least half),
    /// it is read along `asset_timeline`, testing each row's `addedAt` (the `+` keeps SQLite off
    /// `asset_added`, whose range it would sort whole: 14 ms at 100,000 just indexed); else from
    /// the `asset_added` range, sorted (the `+`s keep SQLite from walking `asset_timeline` from
    /// the oldest asset to the first recent one: 148 ms at 1,000,000, 1.5 ms from the range).
    private static func oldestRecentlyAdded(since: Date, filter: MediaFilter, most: Bool, in db: Database) throws -> Asset? {
        let (added, order) = most ? ("+asset.addedAt", "asset.creationDate, asset.id") : ("asset.addedAt", "+asset.creationDate, +asset.id")
        return try AssetRecord.fetchOne(db, sql: """
            SELECT asset.* FROM asset WHERE asset.deletedAt IS NULL AND asset.isHidden = 0 AND \(added) >= ?\(AlbumSummaryQuery.mediaCondition(filter))
            ORDER BY \(order) LIMIT 1
            """, arguments: [since.timeIntervalSince1970])?.asset
    }

    /// The visible assets counted by media type and favourite flag, from `asset_count`.
    private struct VisibleCounts {
        /// Counts by `[mediaType code][isFavorite]`.
        private var counts = [[0, 0], [0, 0]]

        init(in db: Database) throws {
            for row in try Row.fetchAll(db, sql: "SELECT mediaType, isFavorite, SUM(count) FROM asset_count GROUP BY 1, 2") {
                let type: Int = row[0], favorite: Bool = row[1]
                counts[type == MediaType.video.databaseCode ? 1 : 0][favorite ? 1 : 0] = row[2]
            }
        }

        func all(_ filter: MediaFilter) -> Int { codes(filter).reduce(0) { $0 + counts[$1][0] + counts[$1][1] } }
        func favorites(_ filter: MediaFilter) -> Int { codes(filter).reduce(0) { $0 + counts[$1][1] } }

        private func codes(_ filter: MediaFilter) -> [Int] {
            switch filter {
            case .all: [0, 1]
            case .photo: [0]
            case .video: [1]
            }
        }
    }
}
