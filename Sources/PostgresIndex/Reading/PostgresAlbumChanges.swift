import AssetsKit
import Foundation
import IndexedLibrary
import PostgresNIO

/// What the album list kept in an ``AlbumListMemo`` needs to be brought up to the index's latest
/// change token on PostgreSQL, as SQLite's store reads it: what the changes since touched, and
/// the touched albums' counts.
enum PostgresAlbumChanges {
    /// What the changes recorded after `token` can have touched in the album list
    /// (``AlbumListDelta``), the albums and directory of each asset changed looked up; `nil`
    /// when the list must be read whole.
    static func delta(since token: Int64, in session: PostgresSession) async throws -> AlbumListDelta? {
        var changes: [RecordedChange] = []
        for row in try await session.rows("""
            SELECT token, assetUUID, collectionId, kind FROM change WHERE token > \(token) ORDER BY token LIMIT \(AlbumListDelta.limit + 1)
            """) {
            if let recorded = try RecordedChange(postgresRow: row) { changes.append(recorded) }
        }
        guard var delta = AlbumListDelta(changes) else { return nil }
        guard !delta.assets.isEmpty else { return delta }
        let rows = try await session.rows("""
            SELECT asset.uuid, album.uuid, directory.uuid FROM asset JOIN directory ON directory.id = asset.directoryId
            LEFT JOIN album_asset ON album_asset.assetId = asset.id LEFT JOIN album ON album.id = album_asset.albumId
            WHERE asset.uuid = ANY(\(Array(delta.assets)))
            """)
        return delta.resolve(try rows.map { row in try row.decode((UUID, UUID?, UUID).self) }) ? delta : nil
    }

    /// The unfiltered counts of these user albums, by identifier (an album without visible
    /// members has none).
    static func albumCounts(_ albums: Set<UUID>, in session: PostgresSession) async throws -> [CollectionIdentifier: Int] {
        guard !albums.isEmpty else { return [:] }
        var counts: [CollectionIdentifier: Int] = [:]
        for row in try await session.rows("""
            SELECT album.uuid, SUM(album_count.count)::bigint FROM album JOIN album_count ON album_count.albumId = album.id
            WHERE album.uuid = ANY(\(Array(albums))) GROUP BY album.id
            """) {
            let (uuid, count) = try row.decode((UUID, Int).self)
            counts[CollectionID.album(uuid)] = count
        }
        return counts
    }
}

extension RecordedChange {
    /// The change a row of `SELECT token, assetUUID, collectionId, kind FROM change` records, or
    /// `nil` for a kind this version does not know.
    init?(postgresRow row: PostgresRow) throws {
        let (token, asset, collection, kind) = try row.decode((Int64, UUID?, String?, String).self)
        guard let kind = ChangeKind(rawValue: kind) else { return nil }
        self.init(token: token, asset: asset, collection: collection.map(CollectionIdentifier.init(rawValue:)), kind: kind)
    }
}
