import AssetsKit
import Foundation
import GRDB
import LibraryTree
import MediaProbing

/// The writes a scan has gathered, applied together in one transaction.
package struct ScanBatch: Sendable {
    /// What looking at each file found.
    package var outcomes: [ScanOutcome] = []
    /// Entries the walk passed over, recorded as failures.
    package var skipped: [(directory: String, failure: ScanFailure)] = []
    /// Recorded failures whose file is gone or now indexed.
    package var clearedFailures: [String] = []
    /// Ignored (purged) paths whose file is gone or is another file now.
    package var clearedIgnores: [String] = []
    /// Folders the index does not list yet, to list as albums (empty ones too).
    package var folders: [String] = []

    /// The number of writes.
    package var count: Int { outcomes.count + skipped.count + clearedFailures.count + clearedIgnores.count + folders.count }

    /// Applies the batch; what it adds and moves is counted into `summary`.
    func apply(_ db: Database, addedAt: Date, summary: inout ScanSummary) throws {
        for folder in folders { try DirectoryRecord.record(folder, in: db) }
        for path in clearedFailures {
            try db.execute(sql: "DELETE FROM scan_failure WHERE relativePath = ?", arguments: [path])
        }
        for path in clearedIgnores {
            try db.execute(sql: "DELETE FROM ignored_path WHERE relativePath = ?", arguments: [path])
        }
        for (directory, failure) in skipped {
            try Self.recordFailure(db, path: failure.path, directory: directory, byteSize: nil, modificationTime: nil, reason: failure.reason)
        }
        for outcome in outcomes {
            switch outcome {
            case let .read(file, nil, metadata, fingerprint):
                try insert(file, metadata, fingerprint, db, addedAt: addedAt)
                summary.added += 1
            case let .read(file, id?, metadata, fingerprint):
                guard var record = try AssetRecord.fetchOne(db, key: id) else { continue }
                record.refresh(from: file.stored, metadata: metadata, fingerprint: fingerprint)
                try record.update(db)
                try db.execute(sql: "DELETE FROM scan_failure WHERE relativePath = ?", arguments: [file.relativePath])
                try db.recordChange(.changed, asset: record.uuid)
                try db.recordChange(.changed, asset: record.uuid, collection: try Self.collection(ofDirectory: record.directoryId, db))
                summary.updated += 1
            case let .moved(file, id):
                guard var record = try AssetRecord.fetchOne(db, key: id) else { continue }
                let oldCollection = try Self.collection(ofDirectory: record.directoryId, db)
                record.relativePath = file.relativePath
                record.directoryId = try DirectoryRecord.id(forPath: file.directory, in: db)
                record.filename = file.filename
                record.modificationTime = file.modificationTime
                try record.update(db)
                try db.recordChange(.changed, asset: record.uuid)
                try db.recordChange(.removed, asset: record.uuid, collection: oldCollection)
                try db.recordChange(.inserted, asset: record.uuid, collection: try Self.collection(ofDirectory: record.directoryId, db))
                summary.moved += 1
            case let .failed(file, id, reason, _):
                try Self.recordFailure(db, path: file.relativePath, directory: file.directory, byteSize: file.byteSize,
                                       modificationTime: file.modificationTime, reason: reason)
                if let id {
                    try Self.removeAssets([id], db)
                    summary.removed += 1
                }
            }
        }
    }

    private func insert(_ file: FileEntry, _ metadata: MediaMetadata, _ fingerprint: String, _ db: Database, addedAt: Date) throws {
        // An import (or another scan) may have given this path its row since the folder was read.
        // Statements are cached: a first index runs these for every file (each prepared anew, they
        // took a tenth of the scan's CPU time in a perf profile).
        if try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM asset WHERE relativePath = ?"), arguments: [file.relativePath]) == true { return }
        let directoryId = try DirectoryRecord.id(forPath: file.directory, in: db)
        var uuid = AssetUUID.forFile(atRelativePath: file.relativePath)
        if try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM asset WHERE uuid = ?"), arguments: [uuid]) == true {
            uuid = UUID() // the path's UUID went with a file that moved away; this is another file
        }
        var record = AssetRecord(original: file.stored, metadata: metadata, fingerprint: fingerprint, uuid: uuid,
                                 directoryId: directoryId, addedAt: addedAt)
        try record.insert(db)
        try db.cachedStatement(sql: "DELETE FROM scan_failure WHERE relativePath = ?").execute(arguments: [file.relativePath])
        try db.recordChange(.inserted, asset: uuid)
        try db.recordChange(.inserted, asset: uuid, collection: CollectionID.directory(AssetUUID.forDirectory(atRelativePath: file.directory)))
    }

    private static func recordFailure(_ db: Database, path: String, directory: String, byteSize: Int64?,
                                      modificationTime: Int64?, reason: String) throws {
        try db.execute(sql: """
            INSERT INTO scan_failure (relativePath, directoryPath, byteSize, modificationTime, reason) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (relativePath) DO UPDATE SET
                directoryPath = excluded.directoryPath, byteSize = excluded.byteSize,
                modificationTime = excluded.modificationTime, reason = excluded.reason
            """, arguments: [path, directory, byteSize, modificationTime, reason])
    }

    /// Removes asset rows (their album memberships go with them) and records the removals.
    static func removeAssets(_ ids: [Int64], _ db: Database) throws {
        for id in ids {
            guard let row = try Row.fetchOne(db, sql: """
                SELECT asset.uuid, directory.uuid FROM asset JOIN directory ON directory.id = asset.directoryId WHERE asset.id = ?
                """, arguments: [id]) else { continue }
            let uuid: UUID = row[0]
            try db.execute(sql: "DELETE FROM asset WHERE id = ?", arguments: [id])
            try db.recordChange(.removed, asset: uuid)
            try db.recordChange(.removed, asset: uuid, collection: CollectionID.directory(row[1]))
        }
    }

    private static func collection(ofDirectory id: Int64, _ db: Database) throws -> CollectionIdentifier? {
        try UUID.fetchOne(db, sql: "SELECT uuid FROM directory WHERE id = ?", arguments: [id]).map(CollectionID.directory)
    }
}
