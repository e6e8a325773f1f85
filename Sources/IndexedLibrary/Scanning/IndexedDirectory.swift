import GRDB

/// What the index holds for one folder of the tree, for comparing with its listing.
struct IndexedDirectory: Sendable {
    struct FileVersion: Sendable, Equatable {
        let byteSize: Int64?
        let modificationTime: Int64?
    }

    struct IndexedAsset: Sendable {
        let id: Int64
        let version: FileVersion
    }

    struct RecordedFailure: Sendable {
        let version: FileVersion
        let reason: String
    }

    /// The folder's assets by relative path.
    var assets: [String: IndexedAsset] = [:]
    /// The folder's recorded scan failures by relative path.
    var failures: [String: RecordedFailure] = [:]
    /// Files of the folder the scanner leaves alone (purged originals), by relative path, with
    /// the version that was purged.
    var ignored: [String: FileVersion] = [:]

    static func fetch(_ db: Database, path: String) throws -> IndexedDirectory {
        var directory = IndexedDirectory()
        let assetRows = try Row.fetchCursor(db, sql: """
            SELECT asset.id, asset.relativePath, asset.byteSize, asset.modificationTime
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
