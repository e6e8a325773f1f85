import Foundation
import GRDB

/// The SQLite index of a library: a GRDB `DatabasePool` in WAL mode (readers never wait for
/// the writer), migrated to the current schema when opened.
package struct LibraryDatabase: Sendable {
    package let pool: DatabasePool
    package let url: URL

    /// Opens (creating when needed) the index at `url` and migrates it. A folder made for it is
    /// its owner's alone (0700), and so is a new index (0600; SQLite gives its `-wal` and `-shm`
    /// the index's mode): the index, its previews and a bucket's fetched originals tell where and
    /// what the photos are.
    package init(url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let created = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if created >= 0 { close(created) }
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        pool = try DatabasePool(path: url.path, configuration: configuration)
        self.url = url
        try LibrarySchema.migrator.migrate(pool)
    }
}
