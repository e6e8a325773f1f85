import Foundation
import PostgresIndex
import PostgresNIO
import PostgresSessions

/// The scale library written into a PostgreSQL index: the schema from opening a
/// ``PostgresIndexStore`` (every migration and trigger the scanner's writes meet), then the
/// rows in batches of 10,000, each one `INSERT … SELECT FROM unnest(…)` of column arrays;
/// then a picker session with its picks in the session store's tables (`PostgresSessionSchema`), and `VACUUM ANALYZE` (what autovacuum
/// does to a table that stopped changing, so index-only scans can skip the heap).
enum ScalePostgres {
    /// The session the picks belong to.
    static let sessionID = "scale-bench"

    static func write(_ library: ScaleLibrary, database: PostgresPool, root: String, picks: [UUID]) async throws {
        _ = try await PostgresIndexStore(database: database, root: root, previewPlace: "scale-bench")
        try await database.write(statementDeadline: nil) { session in
            let paths = library.directories
            let ids = (1...paths.count).map(Int64.init)
            let uuids = paths.indices.map { ScaleLibrary.uuid(index: -1 - $0, seed: library.seed) }
            try await session.execute("""
                INSERT INTO directory (id, relativePath, uuid) SELECT * FROM unnest(\(ids)::bigint[], \(paths)::text[], \(uuids)::uuid[])
                """)
        }
        var rows = library.assetRows()
        while case let batch = rows.next(10_000), !batch.isEmpty {
            try await database.write(statementDeadline: nil) { session in try await insert(batch, in: session) }
        }
        var albumIDs: [Int64] = [], albumUUIDs: [UUID] = [], titles: [String] = [], positions: [Int64] = []
        var memberAlbums: [Int64] = [], memberAssets: [Int64] = [], memberPositions: [Int64] = []
        library.albumMembers { index, members in
            albumIDs.append(Int64(index + 1))
            albumUUIDs.append(ScaleLibrary.uuid(index: -100_000 - index, seed: library.seed))
            titles.append("Album \(index + 1)")
            positions.append(Int64(index))
            for (position, id) in members.enumerated() {
                memberAlbums.append(Int64(index + 1))
                memberAssets.append(id)
                memberPositions.append(Int64(position))
            }
        }
        try await database.write(statementDeadline: nil) { session in
            try await session.execute("""
                INSERT INTO album (id, uuid, title, kind, parentId, position, createdAt)
                SELECT id, uuid, title, 'album', NULL, position, \(library.now)
                FROM unnest(\(albumIDs)::bigint[], \(albumUUIDs)::uuid[], \(titles)::text[], \(positions)::bigint[]) AS a(id, uuid, title, position)
                """)
        }
        for start in stride(from: 0, to: memberAlbums.count, by: 100_000) {
            let end = min(start + 100_000, memberAlbums.count)
            try await database.write(statementDeadline: nil) { session in
                try await session.execute("""
                    INSERT INTO album_asset (albumId, assetId, position)
                    SELECT * FROM unnest(\(Array(memberAlbums[start..<end]))::bigint[], \(Array(memberAssets[start..<end]))::bigint[],
                                         \(Array(memberPositions[start..<end]))::bigint[])
                    """)
            }
        }
        try await PostgresSessionSchema.migrate(database)
        try await database.write(statementDeadline: nil) { session in
            try await session.execute("""
                INSERT INTO picker_session (id, picker_token, max_items, media_filter, pick_order, own, create_time, expire_time, forget_time, next_position)
                VALUES (\(sessionID), 'token', \(picks.count + 1), 'all', 'pick', false, now(), now() + interval '1 hour', now() + interval '1 day', \(picks.count))
                """)
            try await session.execute("""
                INSERT INTO picker_pick (session_id, asset_uuid, position, media_type, byte_size, creation_date, filename)
                SELECT \(sessionID), asset.uuid, picked.position, asset.mediaType, asset.byteSize, asset.creationDate, asset.filename
                FROM unnest(\(picks)::uuid[]) WITH ORDINALITY AS picked(uuid, position) JOIN asset ON asset.uuid = picked.uuid
                """)
            try await session.execute("SELECT setval(pg_get_serial_sequence('asset', 'id'), (SELECT MAX(id) FROM asset))")
            try await session.execute("SELECT setval(pg_get_serial_sequence('album', 'id'), (SELECT MAX(id) FROM album))")
            try await session.execute("SELECT setval(pg_get_serial_sequence('directory', 'id'), (SELECT MAX(id) FROM directory))")
        }
        try await database.withSession(statementDeadline: nil) { session in try await session.execute("VACUUM ANALYZE") }
    }

    private static func insert(_ rows: [ScaleLibrary.Asset], in session: PostgresSession) async throws {
        try await session.execute("""
            INSERT INTO asset (id, uuid, relativePath, directoryId, filename, mediaType, pixelWidth, pixelHeight,
                creationDate, creationDateSource, modificationTime, byteSize, duration, format, fingerprint,
                isFavorite, isHidden, deletedAt, addedAt)
            SELECT id, uuid, relativePath, directoryId, filename, mediaType, pixelWidth, pixelHeight, creationDate, 'exif', 0,
                   byteSize, NULLIF(duration, -1), format, 'scale:' || id, isFavorite, isHidden, NULLIF(deletedAt, -1), addedAt
            FROM unnest(\(rows.map(\.id))::bigint[], \(rows.map(\.uuid))::uuid[], \(rows.map(\.relativePath))::text[],
                        \(rows.map(\.directoryId))::bigint[], \(rows.map(\.filename))::text[], \(rows.map { Int64($0.mediaType) })::bigint[],
                        \(rows.map { Int64($0.pixelWidth) })::bigint[], \(rows.map { Int64($0.pixelHeight) })::bigint[],
                        \(rows.map(\.creationDate))::float8[], \(rows.map(\.byteSize))::bigint[], \(rows.map { $0.duration ?? -1 })::float8[],
                        \(rows.map(\.format))::text[], \(rows.map(\.isFavorite))::boolean[], \(rows.map(\.isHidden))::boolean[],
                        \(rows.map { $0.deletedAt ?? -1 })::float8[], \(rows.map(\.addedAt))::float8[])
                AS row(id, uuid, relativePath, directoryId, filename, mediaType, pixelWidth, pixelHeight, creationDate,
                       byteSize, duration, format, isFavorite, isHidden, deletedAt, addedAt)
            """)
    }

    /// The ``ScaleLibrary/marker`` of the library written into this database, or `nil`.
    static func marker(in database: PostgresPool) async throws -> String? {
        try await database.withSession { session in
            guard try await session.value("SELECT to_regclass('scale_library') IS NOT NULL", as: Bool.self) == true else { return nil }
            return try await session.value("SELECT marker FROM scale_library", as: String.self)
        }
    }

    /// Records that the library of `marker` is written.
    static func keep(marker: String, in database: PostgresPool) async throws {
        try await database.write(statementDeadline: nil) { session in
            try await session.execute("CREATE TABLE IF NOT EXISTS scale_library (marker text NOT NULL)")
            try await session.execute("DELETE FROM scale_library")
            try await session.execute("INSERT INTO scale_library (marker) VALUES (\(marker))")
        }
    }

    /// The database's bytes on disk (`pg_database_size`).
    static func size(of database: PostgresPool) async throws -> Int64 {
        try await database.withSession { session in
            try await session.value("SELECT pg_database_size(current_database())", as: Int64.self) ?? 0
        }
    }
}

extension ScalePostgres {
    /// The session's picks with their assets, in pick order, as a session store reads them: one
    /// statement over `picker_pick_order` joined to `asset` by UUID. Answers how many rows came.
    static func pickedAssets(in database: PostgresPool) async throws -> Int {
        try await database.withSession { session in
            try await session.rows("""
                SELECT asset.* FROM picker_pick JOIN asset ON asset.uuid = picker_pick.asset_uuid
                WHERE picker_pick.session_id = \(sessionID) AND asset.deletedAt IS NULL
                ORDER BY picker_pick.position
                """).count
        }
    }
}
