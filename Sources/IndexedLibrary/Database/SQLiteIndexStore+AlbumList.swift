import AssetsKit
import Foundation
import GRDB

extension SQLiteIndexStore {
    /// The user albums and folders (``albumCollections(in:)``) at the index's change `token`,
    /// brought up to it from what `albumList` keeps: as kept when nothing changed, the touched
    /// albums' counts read again after a few changes of assets or memberships, else read whole.
    static func albumCollections(_ albumList: AlbumListMemo, at token: Int64, in db: Database) throws -> [AssetCollection] {
        try albumList.collections(.albums, at: token, changes: { try albumListDelta(since: $0, in: db) }) { kept, delta in
            guard let touched = delta.albums else { return nil }
            return AlbumListMemo.patch(kept, touched: AlbumListDelta.albumIdentifiers(touched), counts: try albumCounts(touched, in: db))
        } whole: {
            try albumCollections(in: db)
        }
    }

    /// Every directory, by path, with its count, at the index's change `token`, brought up to it
    /// from what `albumList` keeps as the user albums are (``albumCollections(_:at:in:)``).
    static func directoryCollections(libraryName: String, albumList: AlbumListMemo, at token: Int64, in db: Database) throws -> [AssetCollection] {
        try albumList.collections(.directories, at: token, changes: { try albumListDelta(since: $0, in: db) }) { kept, delta in
            guard let touched = delta.directories else { return nil }
            let fresh = try directoryCollections(libraryName: libraryName, only: touched, in: db)
            return AlbumListMemo.replace(kept, with: Dictionary(uniqueKeysWithValues: fresh.map { ($0.id, $0) }), id: \.id)
        } whole: {
            try directoryCollections(libraryName: libraryName, only: nil, in: db)
        }
    }

    /// Every directory (or those of `only`), by path, with its count summed from `asset_count`.
    private static func directoryCollections(libraryName: String, only: Set<UUID>?, in db: Database) throws -> [AssetCollection] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT directory.uuid, directory.relativePath,
                   (SELECT SUM(count) FROM asset_count WHERE asset_count.directoryId = directory.id) AS count
            FROM directory\(only.map { " WHERE directory.uuid IN (\(databaseQuestionMarks(count: $0.count)))" } ?? "")
            ORDER BY directory.relativePath
            """, arguments: StatementArguments(Array(only ?? [])))
        return rows.map { row in
            DirectoryRecord.collection(uuid: row[0], relativePath: row[1], count: row[2] ?? 0, libraryName: libraryName)
        }
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

    /// What the changes recorded after `token` can have touched in the album list
    /// (``AlbumListDelta``), the albums and directory of each asset changed looked up; `nil`
    /// when the list must be read whole.
    static func albumListDelta(since token: Int64, in db: Database) throws -> AlbumListDelta? {
        let changes = try Row.fetchAll(db, sql: """
            SELECT token, assetUUID, collectionId, kind FROM change WHERE token > ? ORDER BY token LIMIT ?
            """, arguments: [token, AlbumListDelta.limit + 1]).compactMap(RecordedChange.init(row:))
        guard var delta = AlbumListDelta(changes) else { return nil }
        guard !delta.assets.isEmpty else { return delta }
        let rows = try Row.fetchAll(db, sql: """
            SELECT asset.uuid, album.uuid, directory.uuid FROM asset JOIN directory ON directory.id = asset.directoryId
            LEFT JOIN album_asset ON album_asset.assetId = asset.id LEFT JOIN album ON album.id = album_asset.albumId
            WHERE asset.uuid IN (\(databaseQuestionMarks(count: delta.assets.count)))
            """, arguments: StatementArguments(Array(delta.assets)))
        return delta.resolve(rows.map { row in (row[0], row[1], row[2]) }) ? delta : nil
    }

    /// The unfiltered counts of these user albums, by identifier (an album without visible
    /// members has none).
    static func albumCounts(_ albums: Set<UUID>, in db: Database) throws -> [CollectionIdentifier: Int] {
        guard !albums.isEmpty else { return [:] }
        var counts: [CollectionIdentifier: Int] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT album.uuid, SUM(album_count.count) FROM album JOIN album_count ON album_count.albumId = album.id
            WHERE album.uuid IN (\(databaseQuestionMarks(count: albums.count))) GROUP BY album.id
            """, arguments: StatementArguments(Array(albums))) {
            counts[CollectionID.album(row[0])] = row[1]
        }
        return counts
    }
}

extension RecordedChange {
    /// The change a row of `SELECT token, assetUUID, collectionId, kind FROM change` records, or
    /// `nil` for a kind this version does not know.
    init?(row: Row) {
        guard let kind = ChangeKind.fromDatabaseValue(row[3]) else { return nil }
        self.init(token: row[0], asset: row[1], collection: (row[2] as String?).map(CollectionIdentifier.init(rawValue:)), kind: kind)
    }
}
