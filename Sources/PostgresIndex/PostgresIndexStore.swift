import AssetsKit
import Foundation
import IndexedLibrary
import PostgresNIO

/// An indexed library's records in a PostgreSQL database: the ``IndexStore`` for several
/// servers over one library.
///
/// It answers every operation as `SQLiteIndexStore` does — the same tables, the same counts
/// (kept per directory by a trigger), keyset pages over the same browse indexes, the album list
/// in a fixed number of statements, change batches and scan batches each one transaction — and
/// the same test suite runs against both. Write transactions take turns (``PostgresPool``),
/// so change tokens are in commit order; every commit that records changes notifies the other
/// servers, which is how ``liveChanges()`` hears them (``PostgresChangeWatch``).
package struct PostgresIndexStore: IndexStore {
    /// The database's pool of connections.
    package let database: PostgresPool
    /// The library the database describes, as ``IndexedLibrary`` names its place.
    private let root: String
    /// The preview folder whose previews this store records and plans (`PreviewStore.placeKey`):
    /// every machine keeps its own.
    let previewPlace: String
    /// The latest change token, followed for ``liveChanges()``.
    let watch: PostgresChangeWatch
    /// The user albums and their album-list rows as last read, while the index has not changed.
    let albumList = AlbumListMemo()

    /// Opens the index in `database` for the library at `root` (its place: a folder's path or
    /// `s3://BUCKET/PREFIX`), migrating it to the current schema and recording the root.
    /// - Parameter previewPlace: The preview folder of this machine (`PreviewStore.placeKey`),
    ///   whose previews this store records.
    package init(database: PostgresPool, root: String, previewPlace: String) async throws {
        self.database = database
        self.root = root
        self.previewPlace = previewPlace
        try await PostgresSchema.migrate(database)
        let latest = try await database.write { session in
            try await session.execute("""
                INSERT INTO meta (key, value) VALUES ('rootPath', \(root)) ON CONFLICT (key) DO UPDATE SET value = excluded.value
                """)
            return try await Self.latestToken(session)
        }
        watch = PostgresChangeWatch(database: database, latest: latest)
    }

    /// A write transaction that may record changes: once it has committed, the watch (and so
    /// every live change stream of this process) hears of its latest token at once.
    func recordingWrite<Result: Sendable>(_ body: (PostgresSession) async throws -> Result) async throws -> Result {
        let (result, latest) = try await database.write { session in
            (try await body(session), try await Self.latestToken(session))
        }
        watch.advance(to: latest)
        return result
    }

    // MARK: The library

    /// The root was recorded when the store opened (a statement needs the network, which this
    /// synchronous call may not wait for); a library over another place is refused.
    package func recordRoot(_ path: String) throws {
        guard path == root else {
            throw LibraryError.invalidChange("this PostgreSQL index was opened for \(root), not \(path)")
        }
    }

    package func recordCompletedScan(at date: Date) async throws {
        try await database.write { session in
            try await session.execute("""
                INSERT INTO meta (key, value) VALUES ('scanCompletedAt', \(String(date.timeIntervalSince1970)))
                ON CONFLICT (key) DO UPDATE SET value = excluded.value
                """)
        }
    }

    package func hasCompletedScan() async throws -> Bool {
        try await database.withSession { session in
            try await session.value("SELECT value FROM meta WHERE key = 'scanCompletedAt'", as: String.self) != nil
        }
    }

    // MARK: Reading

    package func collections(libraryName: String, recentlyAddedSince since: Date) async throws -> [AssetCollection] {
        try await database.read { session in
            try await PostgresCollections.collections(libraryName: libraryName, recentlyAddedSince: since, albumList: albumList, in: session)
        }
    }

    package func albumSummaries(libraryName: String, filter: MediaFilter, recentlyAddedSince since: Date) async throws -> [AlbumSummary] {
        try await database.read { session in
            try await PostgresAlbumSummaries.summaries(libraryName: libraryName, filter: filter, recentlyAddedSince: since,
                                                       albumList: albumList, in: session)
        }
    }

    package func assetCount(in collection: CollectionIdentifier, filter: MediaFilter, recentlyAddedSince since: Date) async throws -> Int {
        try await database.read { session in
            try await PostgresAssetQuery(collection, filter: filter, recentlyAddedSince: since, in: session).count(session)
        }
    }

    package func assets(in collection: CollectionIdentifier, options: FetchOptions, recentlyAddedSince since: Date) async throws -> FetchResult {
        let (query, total) = try await database.read { session in
            let query = try await PostgresAssetQuery(collection, filter: options.mediaFilter, recentlyAddedSince: since, in: session)
            return (query, try await query.count(session))
        }
        return FetchResult(source: PostgresFetchSource(database: database, query: query, options: options, total: total))
    }

    package func listedAssets(withUUIDs uuids: [UUID]) async throws -> [UUID: Asset] {
        try await rows(uuids: uuids, listedOnly: true).mapValues(\.asset)
    }

    package func records(uuids: [UUID]) async throws -> [UUID: AssetRecord] {
        try await rows(uuids: uuids, listedOnly: false)
    }

    /// The rows of `uuids`, by UUID, in one statement (the UUIDs as one array parameter);
    /// `listedOnly` leaves out Recently Deleted.
    private func rows(uuids: [UUID], listedOnly: Bool) async throws -> [UUID: AssetRecord] {
        guard !uuids.isEmpty else { return [:] }
        let listed = listedOnly ? " AND deletedAt IS NULL" : ""
        return try await database.withSession { session in
            let records = try await session.assetRecords("SELECT asset.* FROM asset WHERE uuid = ANY(\(uuids))\(unescaped: listed)")
            return Dictionary(records.map { ($0.uuid, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }
}
