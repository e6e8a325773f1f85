import GRDB

/// What the index holds for one folder of the tree, for comparing with its listing.
package struct IndexedDirectory: Sendable {
    /// A file's size and modification time (nanoseconds) as recorded.
    package struct FileVersion: Sendable, Equatable {
        package let byteSize: Int64?
        package let modificationTime: Int64?

        package init(byteSize: Int64?, modificationTime: Int64?) {
            self.byteSize = byteSize
            self.modificationTime = modificationTime
        }
    }

    /// An asset row and the file version it was read from.
    package struct IndexedAsset: Sendable {
        package let id: Int64
        package let version: FileVersion

        package init(id: Int64, version: FileVersion) {
            self.id = id
            self.version = version
        }
    }

    /// A recorded scan failure and the file version that failed.
    package struct RecordedFailure: Sendable {
        package let version: FileVersion
        package let reason: String

        package init(version: FileVersion, reason: String) {
            self.version = version
            self.reason = reason
        }
    }

    /// The folder's assets by relative path.
    package var assets: [String: IndexedAsset] = [:]
    /// The folder's recorded scan failures by relative path.
    package var failures: [String: RecordedFailure] = [:]
    /// Files of the folder the scanner leaves alone (purged originals), by relative path, with
    /// the version that was purged.
    package var ignored: [String: FileVersion] = [:]
    /// Whether the index lists the folder as an album (it has a `directory` row).
    package var isRecorded = false

    /// A folder with nothing indexed.
    package init() {}

    static func fetch(_ db: Database, path: String) throws -> IndexedDirectory {
        var directory = IndexedDirectory()
        directory.isRecorded = try Bool.fetchOne(db, sql: "SELECT 1 FROM directory WHERE relativePath = ?", arguments: [path]) == true
        // A video indexed before its frame rate was kept (schema v5) counts as another
        // version, so the scan reads it once more and fills the rate in.
        let assetRows = try Row.fetchCursor(db, sql: """
            SELECT asset.id, asset.relativePath, asset.byteSize,
                   CASE WHEN asset.mediaType = 1 AND asset.framesPerSecond IS NULL THEN -1 ELSE asset.modificationTime END
            FROM asset JOIN directory ON directory.id = asset.directoryId
            WHERE directory.relativePath = ?
            """, arguments: [path])
        while let row = try assetRows.next() {
            directory.assets[row[1]] = IndexedAsset(id: row[0], version: FileVersion(byteSize: row[2], modificationTime: row[3]))
        }
        let failureRows = try Row.fetchCursor(db, sql: """
            SELECT relativePath, byteSize, modificationTime, reason FROM scan_failure WHERE directoryPath = ?
            """, arguments: [path])
        while let row = try failureRows.next() {
            directory.failures[row[0]] = RecordedFailure(version: FileVersion(byteSize: row[1], modificationTime: row[2]), reason: row[3])
        }
        let ignoredRows = try Row.fetchCursor(db, sql: """
            SELECT relativePath, byteSize, modificationTime FROM ignored_path WHERE directoryPath = ?
            """, arguments: [path])
        while let row = try ignoredRows.next() {
            directory.ignored[row[0]] = FileVersion(byteSize: row[1], modificationTime: row[2])
        }
        return directory
    }
}
