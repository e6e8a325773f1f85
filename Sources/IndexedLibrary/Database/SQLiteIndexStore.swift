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
    /// `db`; the user albums and the directories kept in `albumList` and read again only as far
    /// as the index changed.
    static func collections(libraryName: String, recentlyAddedSince since: Date, albumList: AlbumListMemo,
                            in db: Database) throws -> [AssetCollection] {
        let token = try latestToken(db)
        return try SmartAlbumSummaries.collections(recentlyAddedSince: since, in: db)
            + albumCollections(albumList, at: token, in: db)
            + directoryCollections(libraryName: libraryName, albumList: albumList, at: token, in: db)
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
