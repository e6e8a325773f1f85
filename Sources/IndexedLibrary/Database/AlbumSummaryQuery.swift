import AssetsKit
import Foundation
import GRDB

/// An indexed library's album list under a media filter (see ``PhotoLibrary/albumSummaries(filter:)``),
/// read in one transaction by a number of statements that does not grow with the number of albums:
///
/// - the collections, as ``SQLiteIndexStore/collections(libraryName:recentlyAddedSince:in:)`` lists them;
/// - each smart album's count and key asset, as ``AssetQuery`` answers them (at most two
///   statements each; the counts of the collection list serve when the filter is `.all`);
/// - every user album's count and key asset in one statement: a window over `album_asset` joined
///   to the visible assets (`CROSS JOIN` keeps `album_asset` outer: else SQLite walks every
///   visible asset and looks each one up in `album_asset`), ranked by `(creationDate, id)`;
/// - every directory's count and key asset in one statement: per directory, a sum over its few
///   `asset_count` rows and one seek into `asset_directory_timeline` (or
///   `asset_directory_media_timeline` under a media filter), whose columns are the equality terms
///   and then `(creationDate, id)`, so the first entry is the key asset;
/// - the key assets of the albums and directories, fetched by row id in one statement.
///
/// Key assets are the oldest under the filter, ties broken by row id, exactly as a page of one
/// asset sorted oldest first is.
enum AlbumSummaryQuery {
    static func summaries(libraryName: String, filter: MediaFilter, recentlyAddedSince since: Date,
                          in db: Database) throws -> [AlbumSummary] {
        let collections = try SQLiteIndexStore.collections(libraryName: libraryName, recentlyAddedSince: since, in: db)
        let media = mediaCondition(filter)
        var counts: [CollectionIdentifier: Int] = [:]
        var smartKeys: [CollectionIdentifier: Asset] = [:]
        for smart in SmartAlbum.allCases {
            let id = smart.collectionIdentifier
            let query = try AssetQuery(id, filter: filter, recentlyAddedSince: since, in: db)
            let listed = filter == .all ? collections.first { $0.id == id }?.estimatedAssetCount : nil
            let count = try listed ?? query.count(db)
            counts[id] = count
            guard count > 0 else { continue }
            if smart == .recentlyAdded, count * 2 >= counts[SmartAlbum.all.collectionIdentifier] ?? 0 {
                smartKeys[id] = try oldestRecentlyAdded(since: since, media: media, in: db)
            } else {
                smartKeys[id] = try query.page(db, order: .oldestFirst, after: nil, offset: 0, limit: 1).first?.asset
            }
        }
        var keyIDs: [CollectionIdentifier: Int64] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT album.uuid, ranked.assetId, ranked.count FROM (
                SELECT album_asset.albumId, asset.id AS assetId,
                       COUNT(*) OVER (PARTITION BY album_asset.albumId) AS count,
                       ROW_NUMBER() OVER (PARTITION BY album_asset.albumId ORDER BY asset.creationDate, asset.id) AS rank
                FROM album_asset CROSS JOIN asset ON asset.id = album_asset.assetId
                WHERE asset.deletedAt IS NULL AND asset.isHidden = 0\(media)
            ) AS ranked JOIN album ON album.id = ranked.albumId
            WHERE ranked.rank = 1
            """) {
            let id: CollectionIdentifier = CollectionID.album(row[0])
            keyIDs[id] = row[1]
            counts[id] = row[2]
        }
        for row in try Row.fetchAll(db, sql: """
            SELECT directory.uuid,
                   (SELECT asset.id FROM asset
                    WHERE asset.directoryId = directory.id AND asset.deletedAt IS NULL AND asset.isHidden = 0\(media)
                    ORDER BY asset.creationDate, asset.id LIMIT 1) AS keyId,
                   (SELECT SUM(count) FROM asset_count
                    WHERE asset_count.directoryId = directory.id\(media.replacingOccurrences(of: "asset.", with: "asset_count."))) AS count
            FROM directory
            """) where !row.hasNull(atIndex: 1) {
            let id: CollectionIdentifier = CollectionID.directory(row[0])
            keyIDs[id] = row[1]
            counts[id] = row[2]
        }
        let keys = try keyAssets(Array(keyIDs.values), in: db)
        return collections.map { collection in
            let count = counts[collection.id] ?? 0
            let key = count == 0 ? nil : smartKeys[collection.id] ?? keyIDs[collection.id].flatMap { keys[$0] }
            return AlbumSummary(collection: collection, count: count, keyAsset: key)
        }
    }

    /// Recently Added's oldest asset, found by walking the date-ordered browse index and testing
    /// each row's `addedAt` (the `+` keeps SQLite off `asset_added`): the better plan when at
    /// least half of the assets were added recently, where the `asset_added` range would sort
    /// them all (14 ms at 100,000 just indexed).
    private static func oldestRecentlyAdded(since: Date, media: String, in db: Database) throws -> Asset? {
        try AssetRecord.fetchOne(db, sql: """
            SELECT asset.* FROM asset WHERE asset.deletedAt IS NULL AND asset.isHidden = 0 AND +asset.addedAt >= ?\(media)
            ORDER BY asset.creationDate, asset.id LIMIT 1
            """, arguments: [since.timeIntervalSince1970])?.asset
    }

    /// The ` AND …` term of a media filter on `asset`, or nothing.
    private static func mediaCondition(_ filter: MediaFilter) -> String {
        switch filter {
        case .all: ""
        case .photo: " AND asset.mediaType = \(MediaType.photo.databaseCode)"
        case .video: " AND asset.mediaType = \(MediaType.video.databaseCode)"
        }
    }

    /// The assets of these rows, by row id, in one statement (the ids go as one JSON array, so
    /// no limit on bound parameters applies).
    private static func keyAssets(_ ids: [Int64], in db: Database) throws -> [Int64: Asset] {
        guard !ids.isEmpty else { return [:] }
        let list = "[" + ids.map(String.init).joined(separator: ",") + "]"
        let records = try AssetRecord.fetchAll(db, sql: "SELECT asset.* FROM asset WHERE asset.id IN (SELECT value FROM json_each(?))",
                                               arguments: [list])
        var assets: [Int64: Asset] = [:]
        for record in records { if let id = record.id { assets[id] = record.asset } }
        return assets
    }
}
