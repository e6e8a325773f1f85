import AssetsKit
import IndexedLibrary
import Synchronization

/// The lazy source of a fetch result on PostgreSQL, paged as SQLite's `IndexedFetchSource` is:
/// a page that starts where the previous one ended continues from its last
/// `(creationDate, id)` (keyset paging); any other position falls back to OFFSET; an album in
/// its own order is paged by OFFSET over its position index.
final class PostgresFetchSource: FetchResultSource {
    let count: Int
    private let database: PostgresPool
    private let query: PostgresAssetQuery
    private let order: DateOrder
    private let inAlbumOrder: Bool
    /// The fetch's own offset: position 0 of the result is this row of the query.
    private let offset: Int
    private let lastPage = Mutex<(end: Int, keyset: PostgresAssetQuery.Keyset)?>(nil)

    init(database: PostgresPool, query: PostgresAssetQuery, options: FetchOptions, total: Int) {
        self.database = database
        self.query = query
        order = options.sortOrder
        inAlbumOrder = options.albumOrder && query.hasAlbumOrder
        offset = options.offset
        let available = max(0, total - options.offset)
        count = options.limit.map { min(max(0, $0), available) } ?? available
    }

    func assets(in range: Range<Int>) async throws -> [Asset] {
        guard !range.isEmpty else { return [] }
        if inAlbumOrder {
            return try await database.withSession { [query, offset] session in
                try await query.albumPage(session, offset: offset + range.lowerBound, limit: range.count)
            }.map(\.asset)
        }
        let keyset = lastPage.withLock { page in page.flatMap { $0.end == range.lowerBound ? $0.keyset : nil } }
        let records = try await database.withSession { [query, order, offset] session in
            try await query.page(session, order: order, after: keyset, offset: offset + range.lowerBound, limit: range.count)
        }
        if let last = records.last, let id = last.id {
            lastPage.withLock { $0 = (range.lowerBound + records.count, PostgresAssetQuery.Keyset(creationDate: last.creationDate, id: id)) }
        }
        return records.map(\.asset)
    }
}
