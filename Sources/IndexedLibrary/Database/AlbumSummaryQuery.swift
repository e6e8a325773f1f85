import AssetsKit
import Foundation
import GRDB

/// An indexed library's album list under a media filter (see ``PhotoLibrary/albumSummaries(filter:)``),
/// read in one transaction by a number of statements that does not grow with the number of albums:
///
/// - the smart albums (``SmartAlbumSummaries``): their counts from `asset_count` and at most a
///   few index lookups, and one key asset each;
/// - every user album's count and key asset in one statement: a window over `album_asset` joined
///   to the visible assets (`CROSS JOIN` keeps `album_asset` outer: else SQLite walks every
///   visible asset and looks each one up in `album_asset`), ranked by `(creationDate, id)`, and
///   the albums and folders themselves with their unfiltered counts in another;
/// - every directory in one statement: its title's path, its counts (unfiltered and under the
///   filter: sums over its few `asset_count` rows) and its key asset's row, a copy kept per
///   directory and media type in `directory_key` (schema v4);
/// - the key assets of the albums, fetched by row id in one statement.
///
/// Key assets are the oldest under the filter, ties broken by row id, exactly as a page of one
/// asset sorted oldest first is. The user albums' and the directories' rows are kept in
/// `albumList` and read again only as far as the index changed since (``AlbumListMemo``): after a
/// few changes, the touched ones' alone.
enum AlbumSummaryQuery {
    static func summaries(libraryName: String, filter: MediaFilter, recentlyAddedSince since: Date, albumList: AlbumListMemo,
                          in db: Database) throws -> [AlbumSummary] {
        var summaries = try SmartAlbumSummaries.summaries(filter: filter, recentlyAddedSince: since, in: db)
        let token = try SQLiteIndexStore.latestToken(db)
        summaries += try albumSummaries(filter: filter, albumList: albumList, at: token, in: db)
        summaries += try directorySummaries(libraryName: libraryName, filter: filter, albumList: albumList, at: token, in: db)
        return summaries
    }

    /// The user albums and folders, in the order ``SQLiteIndexStore/collections(libraryName:recentlyAddedSince:albumList:in:)``
    /// lists them, at the index's change `token`, brought up to it from what `albumList` keeps, as
    /// ``SQLiteIndexStore/albumCollections(_:at:in:)`` is.
    private static func albumSummaries(filter: MediaFilter, albumList: AlbumListMemo, at token: Int64, in db: Database) throws -> [AlbumSummary] {
        try albumList.summaries(.albums, filter, at: token, changes: { try SQLiteIndexStore.albumListDelta(since: $0, in: db) }) { kept, delta in
            guard let touched = delta.albums else { return nil }
            return AlbumListMemo.patch(kept, touched: AlbumListDelta.albumIdentifiers(touched),
                                       totals: try SQLiteIndexStore.albumCounts(touched, in: db),
                                       fresh: try keyRows(filter: filter, albums: touched, in: db))
        } whole: {
            let collections = try SQLiteIndexStore.albumCollections(albumList, at: token, in: db)
            let fresh = try keyRows(filter: filter, albums: nil, in: db)
            return collections.map { collection in
                AlbumSummary(collection: collection, count: fresh[collection.id]?.count ?? 0, keyAsset: fresh[collection.id]?.keyAsset)
            }
        }
    }

    /// The count and key asset under `filter` of every user album with a member under it, or of
    /// those of `albums` only.
    private static func keyRows(filter: MediaFilter, albums: Set<UUID>?, in db: Database) throws -> [CollectionIdentifier: (count: Int, keyAsset: Asset?)] {
        var ranked: [CollectionIdentifier: (count: Int, keyID: Int64)] = [:]
        let only = albums.map { " AND album_asset.albumId IN (SELECT id FROM album WHERE uuid IN (\(databaseQuestionMarks(count: $0.count))))" } ?? ""
        for row in try Row.fetchAll(db, sql: """
            SELECT album.uuid, ranked.assetId, ranked.count FROM (
                SELECT album_asset.albumId, asset.id AS assetId,
                       COUNT(*) OVER (PARTITION BY album_asset.albumId) AS count,
                       ROW_NUMBER() OVER (PARTITION BY album_asset.albumId ORDER BY asset.creationDate, asset.id) AS rank
                FROM album_asset CROSS JOIN asset ON asset.id = album_asset.assetId
                WHERE asset.deletedAt IS NULL AND asset.isHidden = 0\(mediaCondition(filter))\(only)
            ) AS ranked JOIN album ON album.id = ranked.albumId
            WHERE ranked.rank = 1
            """, arguments: StatementArguments(Array(albums ?? []))) {
            ranked[CollectionID.album(row[0])] = (row[2], row[1])
        }
        let keys = try keyAssets(ranked.values.map(\.keyID), in: db)
        return ranked.mapValues { row in (row.count, keys[row.keyID]) }
    }

    /// Every directory, by path, at the index's change `token`, brought up to it from what
    /// `albumList` keeps as the user albums are (``albumSummaries(filter:albumList:at:in:)``).
    private static func directorySummaries(libraryName: String, filter: MediaFilter, albumList: AlbumListMemo, at token: Int64,
                                           in db: Database) throws -> [AlbumSummary] {
        try albumList.summaries(.directories, filter, at: token, changes: { try SQLiteIndexStore.albumListDelta(since: $0, in: db) }) { kept, delta in
            guard let touched = delta.directories else { return nil }
            let fresh = try directorySummaries(libraryName: libraryName, filter: filter, only: touched, in: db)
            return AlbumListMemo.replace(kept, with: Dictionary(uniqueKeysWithValues: fresh.map { ($0.collection.id, $0) }), id: \.collection.id)
        } whole: {
            try directorySummaries(libraryName: libraryName, filter: filter, only: nil, in: db)
        }
    }

    /// Every directory (or those of `only`), by path, with its key asset's row (from
    /// `directory_key`, schema v4) read in the same statement.
    private static func directorySummaries(libraryName: String, filter: MediaFilter, only: Set<UUID>?, in db: Database) throws -> [AlbumSummary] {
        let key = switch filter {
        case .all:
            // The older of the directory's photo and video keys.
            """
            (SELECT first.mediaType FROM directory_key AS first WHERE first.directoryId = directory.id
             ORDER BY first.creationDate, first.id LIMIT 1)
            """
        case .photo: "\(MediaType.photo.databaseCode)"
        case .video: "\(MediaType.video.databaseCode)"
        }
        let filteredCount = filter == .all ? "" : """
            ,
                   (SELECT SUM(count) FROM asset_count
                    WHERE asset_count.directoryId = directory.id AND asset_count.mediaType = \(key))
            """
        let rows = try Row.fetchCursor(db, sql: """
            SELECT directory_key.*, directory.uuid, directory.relativePath,
                   (SELECT SUM(count) FROM asset_count WHERE asset_count.directoryId = directory.id)\(filteredCount)
            FROM directory LEFT JOIN directory_key ON directory_key.directoryId = directory.id AND directory_key.mediaType = \(key)\(
                only.map { " WHERE directory.uuid IN (\(databaseQuestionMarks(count: $0.count)))" } ?? "")
            ORDER BY directory.relativePath
            """, arguments: StatementArguments(Array(only ?? [])))
        let columns = AssetRecord.columnCount
        var summaries: [AlbumSummary] = []
        while let row = try rows.next() {
            let total: Int = row[columns + 2] ?? 0
            let collection = DirectoryRecord.collection(uuid: row[columns], relativePath: row[columns + 1], count: total,
                                                        libraryName: libraryName)
            let keyAsset = row.hasNull(atIndex: 0) ? nil : try AssetRecord(row: row).asset
            summaries.append(AlbumSummary(collection: collection, count: filter == .all ? total : row[columns + 3] ?? 0, keyAsset: keyAsset))
        }
        return summaries
    }

    /// The ` AND …` term of a media filter on `asset`, or nothing.
    static func mediaCondition(_ filter: MediaFilter) -> String {
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
