import Foundation
import GRDB

/// The SQLite index of a library: a GRDB `DatabasePool` in WAL mode (readers never wait for
/// the writer), migrated to the current schema when opened.
package struct LibraryDatabase: Sendable {
    package let pool: DatabasePool
    package let url: URL

    /// Opens (creating when needed) the index at `url` and migrates it.
    package init(url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
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
