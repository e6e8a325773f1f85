import AssetsKit
import Foundation
import GRDB

/// What a scan compares with and writes to the index.
extension SQLiteIndexStore {
    func hasAssets() async throws -> Bool {
        try await database.pool.read { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM asset)") ?? false }
    }

    func indexedDirectory(at path: String) async throws -> IndexedDirectory {
        try await database.pool.read { db in try IndexedDirectory.fetch(db, path: path) }
    }

    func assets(withFingerprint fingerprint: String) async throws -> [(id: Int64, path: String)] {
        try await database.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT id, relativePath FROM asset WHERE fingerprint = ?", arguments: [fingerprint])
                .map { (id: $0["id"] as Int64, path: $0["relativePath"] as String) }
        }
    }

    func apply(_ batch: ScanBatch, addedAt: Date, summary: ScanSummary) async throws -> ScanSummary {
        try await database.pool.write { db in
            var summary = summary
            try batch.apply(db, addedAt: addedAt, summary: &summary)
            return summary
        }
    }

    func leftovers(inFoldersWhere isGone: @escaping @Sendable (String) -> Bool) async throws -> ScanLeftovers {
        try await database.pool.read { db in
            var assets: [Int64] = []
            var directories: [String] = []
            for row in try Row.fetchAll(db, sql: "SELECT id, relativePath FROM directory") where isGone(row["relativePath"]) {
                assets += try Int64.fetchAll(db, sql: "SELECT id FROM asset WHERE directoryId = ?", arguments: [row["id"] as Int64])
                directories.append(row["relativePath"])
            }
            let failures = try String.fetchAll(db, sql: "SELECT DISTINCT directoryPath FROM scan_failure").filter(isGone)
            let ignored = try String.fetchAll(db, sql: "SELECT DISTINCT directoryPath FROM ignored_path").filter(isGone)
            return ScanLeftovers(assets: assets, directories: directories, failureFolders: failures, ignoredFolders: ignored)
        }
    }

    func removeAssets(_ ids: [Int64], ifGone isGone: @escaping @Sendable (String) -> Bool) async throws -> Int {
        try await database.pool.write { db in
            let gone = try ids.filter { id in
                guard let path = try String.fetchOne(db, sql: "SELECT relativePath FROM asset WHERE id = ?", arguments: [id]) else {
                    return false
                }
                return isGone(path)
            }
            try ScanBatch.removeAssets(gone, db)
            return gone.count
        }
    }

    func forget(failureFolders: [String], ignoredFolders: [String], directories: [String]) async throws {
        try await database.pool.write { db in
            for directory in failureFolders {
                try db.execute(sql: "DELETE FROM scan_failure WHERE directoryPath = ?", arguments: [directory])
            }
            for directory in ignoredFolders {
                try db.execute(sql: "DELETE FROM ignored_path WHERE directoryPath = ?", arguments: [directory])
            }
            for directory in directories {
                guard let uuid = try UUID.fetchOne(db, sql: """
                    DELETE FROM directory WHERE relativePath = ?
                        AND NOT EXISTS (SELECT 1 FROM asset WHERE asset.directoryId = directory.id)
                    RETURNING uuid
                    """, arguments: [directory]) else { continue }
                try db.recordChange(.collection, asset: nil, collection: CollectionID.directory(uuid))
            }
        }
    }
}
