import AssetsKit
import Foundation
import IndexedLibrary
import PostgresNIO

/// The assets of one collection under one media filter, as SQL over the `asset` table: the
/// same terms as SQLite's `AssetQuery`, answered from the same browse indexes (equality terms
/// first, then `(creationDate, id)` for order and keyset paging).
struct PostgresAssetQuery: Sendable {
    /// A value bound to one `?` of the conditions, in order.
    enum Argument: Sendable {
        case id(Int64)
        case seconds(Double)
        case count(Int)
    }

    /// A join that restricts the rows (album membership), or empty.
    private var join = ""
    private var conditions: [String] = []
    private var arguments: [Argument] = []
    /// Whether the rows have an order of their own (a user album's `album_asset.position`).
    private(set) var hasAlbumOrder = false
    /// The same set as conditions on `asset_count`, when that table counts it.
    private var countConditions: [String]?
    /// The same set as conditions on `timeline_count`, when that table counts it: a jump deep
    /// into the list is then planned from its buckets.
    private var timelineConditions: [String]?
    /// The columns before `(creationDate, id)` in the browse index that answers the query, each
    /// one value across its rows (`deletedAt IS NULL`, `isHidden`, a media type, a directory):
    /// named first in ORDER BY, they change no order, but PostgreSQL takes the index's order for
    /// the page's only when they are there (it does not treat `IS NULL` as fixing a column, so
    /// without them a page of 60 sorted every visible asset: 124 ms at 1,000,000).
    private var orderPrefix: [String] = []
    /// Whether ``orderPrefix`` is for newest-first pages only (Recently Added by `addedAt`).
    private var prefixNewestFirstOnly = false

    static let visible = "asset.deletedAt IS NULL AND NOT asset.isHidden"
    /// The browse indexes' columns that ``visible`` holds to one value, in index order.
    static let visibleColumns = ["asset.deletedAt", "asset.isHidden"]

    /// The query for `collection`, whose album or directory is looked up in `session`.
    /// - Throws: `LibraryError.collectionNotFound(_:)` for an unknown collection.
    init(_ collection: CollectionIdentifier, filter: MediaFilter, recentlyAddedSince: Date, in session: PostgresSession) async throws {
        guard let id = CollectionID(collection) else { throw LibraryError.collectionNotFound(collection.rawValue) }
        switch id {
        case .smart(.all):
            conditions = [Self.visible]
            countConditions = []
            timelineConditions = []
            orderPrefix = Self.visibleColumns
        case .smart(.favorites):
            conditions = [Self.visible, "asset.isFavorite"]
            countConditions = ["isFavorite"]
            timelineConditions = ["isFavorite"]
            orderPrefix = Self.visibleColumns
        case .smart(.videos):
            conditions = [Self.visible, "asset.mediaType = \(MediaType.video.databaseCode)"]
            countConditions = ["mediaType = \(MediaType.video.databaseCode)"]
            timelineConditions = countConditions
            orderPrefix = Self.visibleColumns + ["asset.mediaType"]
        case .smart(.recentlyAdded):
            if try await Self.isEverythingAdded(since: recentlyAddedSince, in: session) {
                // Every visible asset was added since the cut-off (a library's first days): the
                // album is All Photos, counted from `asset_count` rather than by a range count.
                conditions = [Self.visible]
                countConditions = []
                timelineConditions = []
            } else {
                conditions = [Self.visible, "asset.addedAt >= ?"]
                arguments = [.seconds(recentlyAddedSince.timeIntervalSince1970)]
            }
        case .smart(.recentlyDeleted):
            conditions = ["asset.deletedAt IS NOT NULL"]
        case .album(let uuid):
            guard let albumID = try await session.value("SELECT id FROM album WHERE uuid = \(uuid)", as: Int64.self) else {
                throw LibraryError.collectionNotFound(collection.rawValue)
            }
            join = "JOIN album_asset ON album_asset.assetId = asset.id"
            conditions = ["album_asset.albumId = ?", Self.visible]
            arguments = [.id(albumID)]
            hasAlbumOrder = true
        case .directory(let uuid):
            guard let directoryID = try await session.value("SELECT id FROM directory WHERE uuid = \(uuid)", as: Int64.self) else {
                throw LibraryError.collectionNotFound(collection.rawValue)
            }
            conditions = ["asset.directoryId = ?", Self.visible]
            arguments = [.id(directoryID)]
            countConditions = ["directoryId = \(directoryID)"]
            orderPrefix = ["asset.directoryId"] + Self.visibleColumns
        }
        if case .smart(.recentlyAdded) = id {
            orderPrefix = Self.visibleColumns
            // By `addedAt`, newest first, the timeline's newest rows are the recently added ones,
            // so the walk stops within a page; oldest first it would walk nearly all of it, and
            // the planner's range over `asset_added` with a sort is the better plan.
            prefixNewestFirstOnly = countConditions == nil
        }
        if let code = Self.mediaCode(filter) {
            conditions.append("asset.mediaType = \(code)")
            countConditions?.append("mediaType = \(code)")
            timelineConditions?.append("mediaType = \(code)")
            if !orderPrefix.isEmpty, !orderPrefix.contains("asset.mediaType") { orderPrefix.append("asset.mediaType") }
        }
    }

    /// Whether every visible asset was added at or after `since` (one seek into `asset_added`:
    /// the first entry in the index's order, its fixed columns named, where `MIN(addedAt)` read
    /// every visible entry, as PostgreSQL does not take `deletedAt IS NULL` as fixing a column).
    static func isEverythingAdded(since: Date, in session: PostgresSession) async throws -> Bool {
        let oldest = try await session.value("""
            SELECT addedAt FROM asset WHERE \(unescaped: visible) ORDER BY deletedAt, isHidden, addedAt LIMIT 1
            """, as: Double.self)
        return oldest.map { $0 >= since.timeIntervalSince1970 } ?? true
    }

    /// The media type code a filter keeps, `nil` for all.
    static func mediaCode(_ filter: MediaFilter) -> Int? {
        switch filter {
        case .all: nil
        case .photo: MediaType.photo.databaseCode
        case .video: MediaType.video.databaseCode
        }
    }

    private var whereClause: String { conditions.joined(separator: " AND ") }

    /// The number of matching assets.
    func count(_ session: PostgresSession) async throws -> Int {
        if let countConditions {
            let whereCounts = countConditions.isEmpty ? "" : " WHERE " + countConditions.joined(separator: " AND ")
            return try await session.value(PostgresQuery(unsafeSQL: "SELECT COALESCE(SUM(count), 0)::bigint FROM asset_count\(whereCounts)"),
                                           as: Int.self) ?? 0
        }
        return try await session.value(statement("SELECT COUNT(*) FROM asset \(join) WHERE \(whereClause)"), as: Int.self) ?? 0
    }

    /// Up to `limit` matching rows of an album in the album's own order, after skipping `offset` rows.
    func albumPage(_ session: PostgresSession, offset: Int, limit: Int) async throws -> [AssetRecord] {
        try await session.assetRecords(statement("""
            SELECT asset.* FROM asset \(join) WHERE \(whereClause)
            ORDER BY album_asset.position, asset.id LIMIT ? OFFSET ?
            """, [.count(limit), .count(offset)]))
    }

    /// Up to `limit` matching rows in `order`: after `keyset` when given (the last row of the
    /// previous page), else after skipping `offset` rows — deep into a list that
    /// `timeline_count` counts, only those of the bucket the position falls in (``TimelineBuckets``).
    func page(_ session: PostgresSession, order: DateOrder, after keyset: Keyset?, offset: Int, limit: Int) async throws -> [AssetRecord] {
        let direction = order == .newestFirst ? "DESC" : "ASC"
        let prefix = prefixNewestFirstOnly && order == .oldestFirst ? [] : orderPrefix
        let ordering = "ORDER BY " + (prefix + ["asset.creationDate", "asset.id"]).map { "\($0) \(direction)" }.joined(separator: ", ")
        if let keyset {
            return try await session.assetRecords(statement("""
                SELECT asset.* FROM asset \(join) WHERE \(whereClause)
                AND (asset.creationDate, asset.id) \(order == .newestFirst ? "<" : ">") (?, ?) \(ordering) LIMIT ?
                """, [.seconds(keyset.creationDate), .id(keyset.id), .count(limit)]))
        }
        if offset >= TimelineBuckets.jumpThreshold, let jump = try await jump(session, order: order, offset: offset) {
            return try await session.assetRecords(statement("""
                SELECT asset.* FROM asset \(join) WHERE \(whereClause) AND asset.creationDate \(order == .newestFirst ? "<" : ">=") ?
                \(ordering) LIMIT ? OFFSET ?
                """, [.seconds(jump.bound), .count(limit), .count(jump.skip)]))
        }
        return try await session.assetRecords(statement("""
            SELECT asset.* FROM asset \(join) WHERE \(whereClause) \(ordering) LIMIT ? OFFSET ?
            """, [.count(limit), .count(offset)]))
    }

    /// The jump to `offset` planned from `timeline_count`, when that table counts this query's set.
    private func jump(_ session: PostgresSession, order: DateOrder, offset: Int) async throws -> TimelineBuckets.Jump? {
        guard let timelineConditions else { return nil }
        let whereCounts = timelineConditions.isEmpty ? "" : " WHERE " + timelineConditions.joined(separator: " AND ")
        let counts = try await session.rows(PostgresQuery(unsafeSQL: """
            SELECT bucket, SUM(count)::bigint FROM timeline_count\(whereCounts) GROUP BY bucket ORDER BY bucket \(order == .newestFirst ? "DESC" : "ASC")
            """)).map { row in
            let (bucket, count) = try row.decode((Int64, Int).self)
            return (bucket: bucket, count: count)
        }
        return TimelineBuckets.jump(to: offset, order: order, counts: counts)
    }

    /// `sql` with its `?`s numbered (`$1`, `$2`, …) and bound to the query's arguments, then `extra`.
    private func statement(_ sql: String, _ extra: [Argument] = []) -> PostgresQuery {
        var bindings = PostgresBindings()
        for argument in arguments + extra {
            switch argument {
            case .id(let value): bindings.append(value)
            case .seconds(let value): bindings.append(value)
            case .count(let value): bindings.append(value)
            }
        }
        var numbered = ""
        var next = 1
        for character in sql {
            if character == "?" {
                numbered += "$\(next)"
                next += 1
            } else {
                numbered.append(character)
            }
        }
        return PostgresQuery(unsafeSQL: numbered, binds: bindings)
    }

    /// Where a page ended, so the next page starts there without counting rows again.
    struct Keyset: Sendable, Hashable {
        var creationDate: Double
        var id: Int64
    }
}
