import Foundation
import GRDB
import IndexedLibrary

/// The scale library written into a SQLite index: the schema from opening an ``IndexedLibrary``
/// (every migration and trigger the scanner's writes meet), then the rows in one transaction
/// through prepared statements.
enum ScaleSQLite {
    static func write(_ library: ScaleLibrary, root: URL, databaseURL: URL) throws {
        _ = try IndexedLibrary(root: root, databaseURL: databaseURL)
        let queue = try DatabaseQueue(path: databaseURL.path)
        defer { try? queue.close() }
        try queue.write { db in
            let directory = try db.makeStatement(sql: "INSERT INTO directory (id, relativePath, uuid) VALUES (?, ?, ?)")
            for (index, path) in library.directories.enumerated() {
                try directory.execute(arguments: [index + 1, path, ScaleLibrary.uuid(index: -1 - index, seed: library.seed)])
            }
            let asset = try db.makeStatement(sql: """
                INSERT INTO asset (id, uuid, relativePath, directoryId, filename, mediaType, pixelWidth, pixelHeight,
                    creationDate, creationDateSource, modificationTime, byteSize, duration, format, fingerprint,
                    isFavorite, isHidden, deletedAt, addedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'exif', 0, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            var rows = library.assetRows()
            while case let batch = rows.next(10_000), !batch.isEmpty {
                for row in batch {
                    try asset.execute(arguments: [
                        row.id, row.uuid, row.relativePath, row.directoryId, row.filename, row.mediaType, row.pixelWidth, row.pixelHeight,
                        row.creationDate, row.byteSize, row.duration, row.format, "scale:\(row.id)",
                        row.isFavorite, row.isHidden, row.deletedAt, row.addedAt,
                    ])
                }
            }
            let album = try db.makeStatement(sql: """
                INSERT INTO album (id, uuid, title, kind, parentId, position, createdAt) VALUES (?, ?, ?, 'album', NULL, ?, ?)
                """)
            let member = try db.makeStatement(sql: "INSERT INTO album_asset (albumId, assetId, position) VALUES (?, ?, ?)")
            try library.albumMembers { index, members in
                try album.execute(arguments: [index + 1, ScaleLibrary.uuid(index: -100_000 - index, seed: library.seed),
                                              "Album \(index + 1)", index, library.now])
                for (position, id) in members.enumerated() {
                    try member.execute(arguments: [index + 1, id, position])
                }
            }
        }
        try queue.writeWithoutTransaction { db in try db.execute(sql: "ANALYZE") }
    }

    /// The index's bytes on disk: the file and its write-ahead log.
    static func size(of databaseURL: URL) -> Int64 {
        [databaseURL.path, databaseURL.path + "-wal"].reduce(0) { total, path in
            total + ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64) ?? 0)
        }
    }
}
