import AssetsKit
import Foundation
import IndexedLibrary
import PostgresNIO

/// The album list under a media filter on PostgreSQL, in one snapshot and a number of
/// statements that does not grow with the number of albums, as SQLite's `AlbumSummaryQuery`:
///
/// - the smart albums: counts from `asset_count` (Recently Added and Recently Deleted by index
///   range), each key asset one keyset page of one;
/// - every user album's count and key asset in one statement (a window over `album_asset` joined
///   to the visible assets), the albums themselves in another, their key rows in a third;
/// - every directory in one statement: its counts (sums over its few `asset_count` rows) and its
///   key asset, read by a lateral join from the directory's browse index (in the index's own
///   order, its fixed columns named first, so each is one seek: see `PostgresAssetQuery`).
///
/// Key assets are the oldest under the filter, ties broken by row id. The user albums' and the
/// directories' rows are kept in `albumList` and read again only as far as the index changed
/// since (``AlbumListMemo``).
enum PostgresAlbumSummaries {
    static func summaries(libraryName: String, filter: MediaFilter, recentlyAddedSince since: Date, albumList: AlbumListMemo,
                          in session: PostgresSession) async throws -> [AlbumSummary] {
        var summaries = try await smartSummaries(filter: filter, recentlyAddedSince: since, in: session)
        let token = try await PostgresIndexStore.latestToken(session)
        summaries += try await albumSummaries(filter: filter, albumList: albumList, at: token, in: session)
        summaries += try await directorySummaries(libraryName: libraryName, filter: filter, albumList: albumList, at: token, in: session)
        return summaries
    }

    private static func smartSummaries(filter: MediaFilter, recentlyAddedSince since: Date, in session: PostgresSession) async throws -> [AlbumSummary] {
        let visible = try await VisibleCounts(in: session)
        var summaries: [AlbumSummary] = []
        for smart in SmartAlbum.allCases {
            let id = smart.collectionIdentifier
            var total: Int, count: Int
            switch smart {
            case .all: (total, count) = (visible.all(.all), visible.all(filter))
            case .favorites: (total, count) = (visible.favorites(.all), visible.favorites(filter))
            case .videos: (total, count) = (visible.all(.video), filter == .photo ? 0 : visible.all(.video))
            case .recentlyAdded, .recentlyDeleted:
                total = try await PostgresAssetQuery(id, filter: .all, recentlyAddedSince: since, in: session).count(session)
                count = filter == .all ? total
                    : try await PostgresAssetQuery(id, filter: filter, recentlyAddedSince: since, in: session).count(session)
            }
            var key: Asset?
            if count > 0 {
                let query = try await PostgresAssetQuery(id, filter: filter, recentlyAddedSince: since, in: session)
                key = try await query.page(session, order: .oldestFirst, after: nil, offset: 0, limit: 1).first?.asset
            }
            summaries.append(AlbumSummary(collection: smart.collection(count: total), count: count, keyAsset: key))
        }
        return summaries
    }

    /// The user albums and folders, in the order the collections list them, at the index's
    /// change `token`, brought up to it from what `albumList` keeps, as
    /// ``PostgresCollections/albumCollections(_:at:in:)`` is.
    private static func albumSummaries(filter: MediaFilter, albumList: AlbumListMemo, at token: Int64,
                                       in session: PostgresSession) async throws -> [AlbumSummary] {
        try await albumList.summaries(.albums, filter, at: token, changes: { try await PostgresAlbumChanges.delta(since: $0, in: session) }) { kept, delta in
            guard let touched = delta.albums else { return nil }
            return AlbumListMemo.patch(kept, touched: AlbumListDelta.albumIdentifiers(touched),
                                       totals: try await PostgresAlbumChanges.albumCounts(touched, in: session),
                                       fresh: try await keyRows(filter: filter, albums: touched, in: session))
        } whole: {
            let collections = try await PostgresCollections.albumCollections(albumList, at: token, in: session)
            let fresh = collections.isEmpty ? [:] : try await keyRows(filter: filter, albums: nil, in: session)
            return collections.map { collection in
                AlbumSummary(collection: collection, count: fresh[collection.id]?.count ?? 0, keyAsset: fresh[collection.id]?.keyAsset)
            }
        }
    }

    /// The count and key asset under `filter` of every user album with a member under it, or of
    /// those of `albums` only.
    private static func keyRows(filter: MediaFilter, albums: Set<UUID>?, in session: PostgresSession) async throws
        -> [CollectionIdentifier: (count: Int, keyAsset: Asset?)] {
        let ranking = """
            SELECT album.uuid, ranked.assetId, ranked.count FROM (
                SELECT album_asset.albumId, asset.id AS assetId,
                       COUNT(*) OVER (PARTITION BY album_asset.albumId) AS count,
                       ROW_NUMBER() OVER (PARTITION BY album_asset.albumId ORDER BY asset.creationDate, asset.id) AS rank
                FROM album_asset JOIN asset ON asset.id = album_asset.assetId
                WHERE \(PostgresAssetQuery.visible)\(mediaCondition(filter))
            """
        let firsts = ") AS ranked JOIN album ON album.id = ranked.albumId WHERE ranked.rank = 1"
        let rows = if let albums {
            try await session.rows("""
                \(unescaped: ranking) AND album_asset.albumId IN (SELECT id FROM album WHERE uuid = ANY(\(Array(albums))))
                \(unescaped: firsts)
                """)
        } else {
            try await session.rows("\(unescaped: ranking)\n\(unescaped: firsts)")
        }
        var ranked: [CollectionIdentifier: (count: Int, keyID: Int64)] = [:]
        for row in rows {
            let (uuid, assetID, count) = try row.decode((UUID, Int64, Int).self)
            ranked[CollectionID.album(uuid)] = (count, assetID)
        }
        var keys: [Int64: Asset] = [:]
        if !ranked.isEmpty {
            for record in try await session.assetRecords("SELECT asset.* FROM asset WHERE id = ANY(\(ranked.values.map(\.keyID)))") {
                if let id = record.id { keys[id] = record.asset }
            }
        }
        return ranked.mapValues { row in (row.count, keys[row.keyID]) }
    }

    /// Every directory, by path, at the index's change `token`, brought up to it from what
    /// `albumList` keeps as the user albums are (``albumSummaries(filter:albumList:at:in:)``).
    private static func directorySummaries(libraryName: String, filter: MediaFilter, albumList: AlbumListMemo, at token: Int64,
                                           in session: PostgresSession) async throws -> [AlbumSummary] {
        try await albumList.summaries(.directories, filter, at: token, changes: { try await PostgresAlbumChanges.delta(since: $0, in: session) }) { kept, delta in
            guard let touched = delta.directories else { return nil }
            let fresh = try await directorySummaries(libraryName: libraryName, filter: filter, only: touched, in: session)
            return AlbumListMemo.replace(kept, with: Dictionary(uniqueKeysWithValues: fresh.map { ($0.collection.id, $0) }), id: \.collection.id)
        } whole: {
            try await directorySummaries(libraryName: libraryName, filter: filter, only: nil, in: session)
        }
    }

    /// Every directory (or those of `only`), by path, with its key asset's row read in the same statement.
    private static func directorySummaries(libraryName: String, filter: MediaFilter, only: Set<UUID>?,
                                           in session: PostgresSession) async throws -> [AlbumSummary] {
        let filteredCount = PostgresAssetQuery.mediaCode(filter).map { code in
            "(SELECT COALESCE(SUM(count), 0)::bigint FROM asset_count WHERE asset_count.directoryId = directory.id AND asset_count.mediaType = \(code))"
        } ?? "0::bigint"
        let select = """
            SELECT key.*, directory.uuid, directory.relativePath,
                   (SELECT COALESCE(SUM(count), 0)::bigint FROM asset_count WHERE asset_count.directoryId = directory.id),
                   \(filteredCount)
            FROM directory LEFT JOIN LATERAL (
                SELECT asset.* FROM asset
                WHERE asset.directoryId = directory.id AND \(PostgresAssetQuery.visible)\(mediaCondition(filter))
                ORDER BY asset.directoryId, asset.deletedAt, asset.isHidden\(filter == .all ? "" : ", asset.mediaType"), asset.creationDate, asset.id
                LIMIT 1
            ) AS key ON true
            """
        let rows = if let only {
            try await session.rows("\(unescaped: select) WHERE directory.uuid = ANY(\(Array(only))) ORDER BY directory.relativePath COLLATE \"C\"")
        } else {
            try await session.rows("\(unescaped: select) ORDER BY directory.relativePath COLLATE \"C\"")
        }
        let columns = AssetRecord.columnCount
        return try rows.map { row in
            let cells = row.makeRandomAccess()
            let total = try cells[columns + 2].decode(Int.self)
            let collection = DirectoryCollection.collection(uuid: try cells[columns].decode(UUID.self), relativePath: try cells[columns + 1].decode(String.self),
                                                        count: total, libraryName: libraryName)
            let keyAsset = cells[0].bytes == nil ? nil : try AssetRecord(postgresRow: row).asset
            return AlbumSummary(collection: collection, count: filter == .all ? total : try cells[columns + 3].decode(Int.self), keyAsset: keyAsset)
        }
    }

    /// The ` AND …` term of a media filter on `asset`, or nothing.
    static func mediaCondition(_ filter: MediaFilter) -> String {
        PostgresAssetQuery.mediaCode(filter).map { " AND asset.mediaType = \($0)" } ?? ""
    }
}
