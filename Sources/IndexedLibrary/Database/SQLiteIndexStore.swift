import AssetsKit
import Foundation
import GRDB

/// An indexed library's records in a SQLite file, through GRDB: the ``IndexStore`` of today.
///
/// Counts are index-only and pages are keyset ranges (``AssetQuery``, ``IndexedFetchSource``);
/// change batches, scan batches and drafts are each one write transaction.
struct SQLiteIndexStore: IndexStore {
    let database: LibraryDatabase
    /// The user albums and their album-list rows as last read, while the index has not changed.
    let albumList = AlbumListMemo()

    /// Opens (creating when needed) the index at `url` and migrates it.
    init(url: URL) throws {
        database = try LibraryDatabase(url: url)
    }

    // MARK: The library

    func recordRoot(_ path: String) throws {
        try database.pool.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('rootPath', ?)", arguments: [path])
        }
    }

    func recordCompletedScan(at date: Date) async throws {
        try await database.pool.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('scanCompletedAt', ?)",
                           arguments: [String(date.timeIntervalSince1970)])
        }
    }

    func hasCompletedScan() async throws -> Bool {
        try await database.pool.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'scanCompletedAt'") != nil
        }
    }

    // MARK: Reading

    func collections(libraryName: String, recentlyAddedSince since: Date) async throws -> [AssetCollection] {
        try await database.pool.read { db in
            try Self.collections(libraryName: libraryName, recentlyAddedSince: since, albumList: albumList, in: db)
        }
    }

    /// The collections, as ``collections(libraryName:recentlyAddedSince:)`` lists them, read in
    /// `db`; the user albums from `albumList` while the index has not changed.
    static func collections(libraryName: String, recentlyAddedSince since: Date, albumList: AlbumListMemo,
                            in db: Database) throws -> [AssetCollection] {
        var collections = try SmartAlbumSummaries.collections(recentlyAddedSince: since, in: db)
        collections += try albumCollections(albumList, in: db)
        let directories = try Row.fetchAll(db, sql: """
            SELECT directory.uuid, directory.relativePath,
                   (SELECT SUM(count) FROM asset_count WHERE asset_count.directoryId = directory.id) AS count
            FROM directory ORDER BY directory.relativePath
            """)
        for row in directories {
            collections.append(DirectoryRecord.collection(uuid: row[0], relativePath: row[1], count: row[2] ?? 0, libraryName: libraryName))
        }
        return collections
    }

    /// The user albums and folders (``albumCollections(in:)``): those `albumList` keeps when
    /// they were read at the index's latest change token, else read and kept.
    static func albumCollections(_ albumList: AlbumListMemo, in db: Database) throws -> [AssetCollection] {
        let token = try latestToken(db)
        if let albums = albumList.albums(at: token) { return albums }
        let albums = try albumCollections(in: db)
        albumList.keep(albums: albums, at: token)
        return albums
    }

    /// The user albums and folders, top level first, each level by position, with their
    /// unfiltered counts (a folder has none), summed from `album_count` (schema v7).
    ///
    /// One pass over `album_children` (SQLite puts a `NULL` parent, the top level, first) read
    /// by column position, each parent's UUID found among the rows read rather than joined: at
    /// 20,000 albums the join and reading by column name were two thirds of the list's time.
    static func albumCollections(in db: Database) throws -> [AssetCollection] {
        var rows: [(id: Int64, uuid: UUID, title: String, isFolder: Bool, parentId: Int64?, count: Int)] = []
        let cursor = try Row.fetchCursor(db, sql: """
            SELECT album.id, album.uuid, album.title, album.kind = 'folder', album.parentId,
                   (SELECT SUM(count) FROM album_count WHERE album_count.albumId = album.id)
            FROM album ORDER BY album.parentId, album.position
            """)
        while let row = try cursor.next() {
            rows.append((row[0], row[1], row[2], row[3], row[4], row[5] ?? 0))
        }
        let identifiers: [CollectionIdentifier] = rows.map { row in CollectionID.album(row.uuid) }
        let byRowID = Dictionary(uniqueKeysWithValues: zip(rows.lazy.map(\.id), identifiers))
        return zip(rows, identifiers).map { row, id in
            AssetCollection(id: id, title: row.title, kind: row.isFolder ? .folder : .album,
                            estimatedAssetCount: row.isFolder ? nil : row.count, parentID: row.parentId.flatMap { byRowID[$0] })
        }
    }

    func albumSummaries(libraryName: String, filter: MediaFilter, recentlyAddedSince since: Date) async throws -> [AlbumSummary] {
        try await database.pool.read { db in
            try AlbumSummaryQuery.summaries(libraryName: libraryName, filter: filter, recentlyAddedSince: since, albumList: albumList, in: db)
        }
    }

    func assetCount(in collection: CollectionIdentifier, filter: MediaFilter, recentlyAddedSince since: Date) async throws -> Int {
        try await database.pool.read { db in
            try AssetQuery(collection, filter: filter, recentlyAddedSince: since, in: db).count(db)
        }
    }

    func assets(in collection: CollectionIdentifier, options: FetchOptions, recentlyAddedSince since: Date) async throws -> FetchResult {
        let (query, total) = try await database.pool.read { db in
            var query = try AssetQuery(collection, filter: options.mediaFilter, recentlyAddedSince: since, in: db)
            let count = try query.count(db)
            try query.preferTimeline(count: count, in: db)
            return (query, count)
        }
        return FetchResult(source: IndexedFetchSource(database: database, query: query, options: options, total: total))
    }

    func listedAssets(withUUIDs uuids: [UUID]) async throws -> [UUID: Asset] {
        try await rows(uuids: uuids, listedOnly: true).mapValues(\.asset)
    }

    func records(uuids: [UUID]) async throws -> [UUID: AssetRecord] {
        try await rows(uuids: uuids, listedOnly: false)
    }

    /// The rows of `uuids`, by UUID, in one read (500 UUIDs to a statement); `listedOnly`
    /// leaves out Recently Deleted.
    private func rows(uuids: [UUID], listedOnly: Bool) async throws -> [UUID: AssetRecord] {
        guard !uuids.isEmpty else { return [:] }
        return try await database.pool.read { db in
            var found: [UUID: AssetRecord] = [:]
            for start in stride(from: 0, to: uuids.count, by: 500) {
                var rows = AssetRecord.filter(uuids[start..<min(uuids.count, start + 500)].contains(Column("uuid")))
                // `+` keeps SQLite on the `uuid` index: with statistics (ANALYZE) it chose a browse
                // index for `deletedAt IS NULL` and read it whole per 500 UUIDs (1.8 s for 2,000 of 1,000,000).
                if listedOnly { rows = rows.filter(sql: "+deletedAt IS NULL") }
                for record in try rows.fetchAll(db) { found[record.uuid] = record }
            }
            return found
        }
    }
}
