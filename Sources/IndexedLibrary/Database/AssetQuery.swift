import AssetsKit
import Foundation
import GRDB

/// The assets of one collection under one media filter, as SQL over the `asset` table. Every
/// form is answered from one of the browse indexes: equality terms first, then
/// `(creationDate, id)` for order and keyset paging.
struct AssetQuery: Sendable {
    /// A join that restricts the rows (album membership), or empty.
    var join = ""
    var conditions: [String] = []
    var arguments: [DatabaseValue] = []
    /// Whether the rows have an order of their own (a user album's `album_asset.position`).
    private(set) var hasAlbumOrder = false
    /// The same set as conditions on `asset_count` (schema v3), when the collection is one
    /// whose visible assets that table counts: the count is then a sum over a few rows.
    var countConditions: [String]?
    /// The same set as conditions on `timeline_count` (schema v8), when that table counts it:
    /// a jump deep into the list is then planned from its buckets.
    var timelineConditions: [String]?

    private static let visible = "asset.deletedAt IS NULL AND asset.isHidden = 0"
    private static let addedSince = "asset.addedAt >= ?"
    /// In Recently Deleted: a deletion time, written as a range so that SQLite reads the few
    /// deleted rows from an index (`deletedAt IS NOT NULL` alone, with statistics, read all of
    /// `asset`: 96 ms for the trash's oldest of 1,000,000).
    private static let deleted = "asset.deletedAt > -1e300"
    /// The filter of the query, for ``preferTimeline(count:in:)``.
    private var filter: MediaFilter = .all

    /// The query for `collection`, whose album or directory is looked up in `db`.
    /// - Throws: ``LibraryError/collectionNotFound(_:)`` for an unknown collection.
    init(_ collection: CollectionIdentifier, filter: MediaFilter, recentlyAddedSince: Date, in db: Database) throws {
        guard let id = CollectionID(collection) else { throw LibraryError.collectionNotFound(collection.rawValue) }
        switch id {
        case .smart(.all):
            conditions = [Self.visible]
            countConditions = []
            timelineConditions = []
        case .smart(.favorites):
            conditions = [Self.visible, "asset.isFavorite"]
            countConditions = ["isFavorite"]
            timelineConditions = ["isFavorite"]
        case .smart(.videos):
            conditions = [Self.visible, "asset.mediaType = \(MediaType.video.databaseCode)"]
            countConditions = ["mediaType = \(MediaType.video.databaseCode)"]
            timelineConditions = countConditions
        case .smart(.recentlyAdded) where try Self.isEverythingAdded(since: recentlyAddedSince, in: db):
            // Every visible asset was added since the cut-off, as on the day a library is first
            // indexed: the album holds exactly All Photos, counted and paged as All Photos is
            // (the `asset_added` range would be read whole and sorted: 92 ms for the newest 60 of 100,000).
            conditions = [Self.visible]
            countConditions = []
            timelineConditions = []
        case .smart(.recentlyAdded):
            conditions = [Self.visible, Self.addedSince]
            arguments = [recentlyAddedSince.timeIntervalSince1970.databaseValue]
        case .smart(.recentlyDeleted):
            conditions = [Self.deleted]
        case .album(let uuid):
            guard let albumID = try Int64.fetchOne(db, sql: "SELECT id FROM album WHERE uuid = ?", arguments: [uuid]) else {
                throw LibraryError.collectionNotFound(collection.rawValue)
            }
            join = "JOIN album_asset ON album_asset.assetId = asset.id"
            conditions = ["album_asset.albumId = ?", Self.visible]
            arguments = [albumID.databaseValue]
            hasAlbumOrder = true
        case .directory(let uuid):
            guard let directoryID = try Int64.fetchOne(db, sql: "SELECT id FROM directory WHERE uuid = ?", arguments: [uuid]) else {
                throw LibraryError.collectionNotFound(collection.rawValue)
            }
            conditions = ["asset.directoryId = ?", Self.visible]
            arguments = [directoryID.databaseValue]
            countConditions = ["directoryId = \(directoryID)"]
        }
        self.filter = filter
        switch filter {
        case .all: break
        case .photo, .video:
            let code = (filter == .video ? MediaType.video : .photo).databaseCode
            conditions.append("asset.mediaType = \(code)")
            countConditions?.append("mediaType = \(code)")
            timelineConditions?.append("mediaType = \(code)")
        }
    }

    private var whereClause: String { conditions.joined(separator: " AND ") }

    /// Whether every visible asset was added at or after `since` (one seek into `asset_added`).
    static func isEverythingAdded(since: Date, in db: Database) throws -> Bool {
        let oldest = try Double.fetchOne(db, sql: "SELECT MIN(addedAt) FROM asset WHERE deletedAt IS NULL AND isHidden = 0")
        return oldest.map { $0 >= since.timeIntervalSince1970 } ?? true
    }

    /// Makes Recently Added holding `count` assets, at least half of the visible ones under the
    /// filter, paged by walking the date-ordered browse index and testing each row's `addedAt`
    /// (the `+` keeps SQLite off `asset_added`, whose range would be read whole and sorted: 22 ms
    /// for the newest 60 of 95,000 of 100,000); a page of 60 then reads about 120 rows.
    mutating func preferTimeline(count: Int, in db: Database) throws {
        guard let term = conditions.firstIndex(of: Self.addedSince) else { return }
        let visible = try AssetQuery(SmartAlbum.all.collectionIdentifier, filter: filter, recentlyAddedSince: .distantPast, in: db).count(db)
        if count * 2 >= visible { conditions[term] = "+" + Self.addedSince }
    }

    /// The number of matching assets.
    func count(_ db: Database) throws -> Int {
        if let countConditions {
            let whereCounts = countConditions.isEmpty ? "" : " WHERE " + countConditions.joined(separator: " AND ")
            return try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(count), 0) FROM asset_count\(whereCounts)") ?? 0
        }
        return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM asset \(join) WHERE \(whereClause)",
                         arguments: StatementArguments(arguments)) ?? 0
    }

    /// Up to `limit` matching rows of an album in the album's own order, after skipping `offset`
    /// rows (from the `(albumId, position)` index).
    func albumPage(_ db: Database, offset: Int, limit: Int) throws -> [AssetRecord] {
        try AssetRecord.fetchAll(db, sql: """
            SELECT asset.* FROM asset \(join) WHERE \(whereClause)
            ORDER BY album_asset.position, asset.id LIMIT ? OFFSET ?
            """, arguments: StatementArguments(arguments + [limit.databaseValue, offset.databaseValue]))
    }

    /// Up to `limit` matching rows in `order`: after `keyset` when given (the last row of the
    /// previous page), else after skipping `offset` rows — deep into a list that
    /// `timeline_count` counts, only those of the bucket the position falls in (``TimelineBuckets``).
    ///
    /// Rows are skipped in the browse index alone: a subquery walks the index entries (which
    /// hold the order and the row id) past `offset` and picks `limit` ids, and only those rows
    /// are read from the table. (An OFFSET on `SELECT asset.*` stepped through the table rows
    /// it skipped: 2.6 ms at offset 50,000 of 100,000.)
    func page(_ db: Database, order: DateOrder, after keyset: Keyset?, offset: Int, limit: Int) throws -> [AssetRecord] {
        let direction = order == .newestFirst ? "DESC" : "ASC"
        let ordering = "ORDER BY asset.creationDate \(direction), asset.id \(direction)"
        var values = arguments
        if let keyset {
            values += [keyset.creationDate.databaseValue, keyset.id.databaseValue, limit.databaseValue]
            return try AssetRecord.fetchAll(db, sql: """
                SELECT asset.* FROM asset \(join) WHERE \(whereClause)
                AND (asset.creationDate, asset.id) \(order == .newestFirst ? "<" : ">") (?, ?) \(ordering) LIMIT ?
                """, arguments: StatementArguments(values))
        }
        if offset >= TimelineBuckets.jumpThreshold, let jump = try jump(db, order: order, offset: offset) {
            values += [jump.bound.databaseValue, limit.databaseValue, jump.skip.databaseValue]
            return try AssetRecord.fetchAll(db, sql: """
                SELECT asset.* FROM asset WHERE asset.id IN (
                    SELECT asset.id FROM asset \(join) WHERE \(whereClause) AND asset.creationDate \(order == .newestFirst ? "<" : ">=") ?
                    \(ordering) LIMIT ? OFFSET ?)
                \(ordering)
                """, arguments: StatementArguments(values))
        }
        if offset == 0 {
            values.append(limit.databaseValue)
            return try AssetRecord.fetchAll(db, sql: "SELECT asset.* FROM asset \(join) WHERE \(whereClause) \(ordering) LIMIT ?",
                                            arguments: StatementArguments(values))
        }
        values += [limit.databaseValue, offset.databaseValue]
        return try AssetRecord.fetchAll(db, sql: """
            SELECT asset.* FROM asset WHERE asset.id IN (
                SELECT asset.id FROM asset \(join) WHERE \(whereClause) \(ordering) LIMIT ? OFFSET ?)
            \(ordering)
            """, arguments: StatementArguments(values))
    }

    /// The jump to `offset` planned from `timeline_count` (schema v8), when that table counts
    /// this query's set.
    private func jump(_ db: Database, order: DateOrder, offset: Int) throws -> TimelineBuckets.Jump? {
        guard let timelineConditions else { return nil }
        let whereCounts = timelineConditions.isEmpty ? "" : " WHERE " + timelineConditions.joined(separator: " AND ")
        let counts = try Row.fetchAll(db, sql: """
            SELECT bucket, SUM(count) FROM timeline_count\(whereCounts) GROUP BY bucket ORDER BY bucket \(order == .newestFirst ? "DESC" : "ASC")
            """).map { (bucket: $0[0] as Int64, count: $0[1] as Int) }
        return TimelineBuckets.jump(to: offset, order: order, counts: counts)
    }

    /// Where a page ended, so the next page starts there without counting rows again.
    struct Keyset: Sendable, Hashable {
        var creationDate: Double
        var id: Int64
    }
}
