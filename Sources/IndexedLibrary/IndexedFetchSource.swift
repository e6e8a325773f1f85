import AssetsKit
import GRDB
import Synchronization

/// The lazy source of an indexed library's fetch result: its count is one COUNT on an index,
/// and assets are loaded a page at a time. A page that starts where the previous one ended
/// continues from that page's last `(creationDate, id)` (keyset paging: page 1,000 costs what
/// page 1 costs); any other position falls back to OFFSET. An album listed in its own order
/// (``FetchOptions/albumOrder``) is paged by OFFSET over its position index.
final class IndexedFetchSource: FetchResultSource {
    let count: Int
    private let database: LibraryDatabase
    private let query: AssetQuery
    private let order: DateOrder
    private let inAlbumOrder: Bool
    /// The fetch's own offset: position 0 of the result is this row of the query.
    private let offset: Int
    private let lastPage = Mutex<(end: Int, keyset: AssetQuery.Keyset)?>(nil)

    init(database: LibraryDatabase, query: AssetQuery, options: FetchOptions, total: Int) {
        self.database = database
        self.query = query
        self.order = options.sortOrder
        inAlbumOrder = options.albumOrder && query.hasAlbumOrder
        self.offset = options.offset
        let available = max(0, total - options.offset)
        count = options.limit.map { min(max(0, $0), available) } ?? available
    }

    func assets(in range: Range<Int>) async throws -> [Asset] {
        guard !range.isEmpty else { return [] }
        if inAlbumOrder {
            return try await database.pool.read { [query, offset] db in
                try query.albumPage(db, offset: offset + range.lowerBound, limit: range.count)
            }.map(\.asset)
        }
        let keyset = lastPage.withLock { page in page.flatMap { $0.end == range.lowerBound ? $0.keyset : nil } }
        let records = try await database.pool.read { [query, order, offset] db in
            try query.page(db, order: order, after: keyset, offset: offset + range.lowerBound, limit: range.count)
        }
        if let last = records.last, let id = last.id {
            lastPage.withLock { $0 = (range.lowerBound + records.count, AssetQuery.Keyset(creationDate: last.creationDate, id: id)) }
        }
        return records.map(\.asset)
    }
}
