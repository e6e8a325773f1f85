import AssetsKit
import Foundation
import IndexedLibrary
import PostgresNIO

/// What a scan compares with and writes to the index.
extension PostgresIndexStore {
    package func hasAssets() async throws -> Bool {
        try await database.withSession { session in try await session.value("SELECT EXISTS (SELECT 1 FROM asset)", as: Bool.self) ?? false }
    }

    package func indexedDirectory(at path: String) async throws -> IndexedDirectory {
        try await database.read { session in
            var directory = IndexedDirectory()
            directory.isRecorded = try await session.value("SELECT 1 FROM directory WHERE relativePath = \(path)", as: Int.self) != nil
            // A video indexed before its frame rate was kept counts as another version (as on SQLite).
            for row in try await session.rows("""
                SELECT asset.id, asset.relativePath, asset.byteSize,
                       CASE WHEN asset.mediaType = 1 AND asset.framesPerSecond IS NULL THEN -1 ELSE asset.modificationTime END
                FROM asset JOIN directory ON directory.id = asset.directoryId
                WHERE directory.relativePath = \(path)
                """) {
                let (id, relativePath, byteSize, modificationTime) = try row.decode((Int64, String, Int64, Int64).self)
                directory.assets[relativePath] = IndexedDirectory.IndexedAsset(
                    id: id, version: IndexedDirectory.FileVersion(byteSize: byteSize, modificationTime: modificationTime))
            }
            for row in try await session.rows("""
                SELECT relativePath, byteSize, modificationTime, reason FROM scan_failure WHERE directoryPath = \(path)
                """) {
                let (relativePath, byteSize, modificationTime, reason) = try row.decode((String, Int64?, Int64?, String).self)
                directory.failures[relativePath] = IndexedDirectory.RecordedFailure(
                    version: IndexedDirectory.FileVersion(byteSize: byteSize, modificationTime: modificationTime), reason: reason)
            }
            for row in try await session.rows("SELECT relativePath, byteSize, modificationTime FROM ignored_path WHERE directoryPath = \(path)") {
                let (relativePath, byteSize, modificationTime) = try row.decode((String, Int64, Int64).self)
                directory.ignored[relativePath] = IndexedDirectory.FileVersion(byteSize: byteSize, modificationTime: modificationTime)
            }
            return directory
        }
    }

    package func assets(withFingerprint fingerprint: String) async throws -> [(id: Int64, path: String)] {
        try await database.withSession { session in
            try await session.rows("SELECT id, relativePath FROM asset WHERE fingerprint = \(fingerprint)").map { row in
                let (id, path) = try row.decode((Int64, String).self)
                return (id: id, path: path)
            }
        }
    }

    package func apply(_ batch: ScanBatch, addedAt: Date, summary: ScanSummary) async throws -> ScanSummary {
        try await recordingWrite { session in
            var summary = summary
            try await PostgresScanWriter(session: session, addedAt: addedAt).apply(batch, summary: &summary)
            return summary
        }
    }

    package func leftovers(inFoldersWhere isGone: @escaping @Sendable (String) -> Bool) async throws -> ScanLeftovers {
        try await database.read { session in
            var assets: [Int64] = []
            var directories: [String] = []
            for row in try await session.rows("SELECT id, relativePath FROM directory") {
                let (id, path) = try row.decode((Int64, String).self)
                guard isGone(path) else { continue }
                assets += try await session.values("SELECT id FROM asset WHERE directoryId = \(id)", as: Int64.self)
                directories.append(path)
            }
            let failures = try await session.values("SELECT DISTINCT directoryPath FROM scan_failure", as: String.self).filter(isGone)
            let ignored = try await session.values("SELECT DISTINCT directoryPath FROM ignored_path", as: String.self).filter(isGone)
            return ScanLeftovers(assets: assets, directories: directories, failureFolders: failures, ignoredFolders: ignored)
        }
    }

    package func removeAssets(_ ids: [Int64], ifGone isGone: @escaping @Sendable (String) -> Bool) async throws -> Int {
        try await recordingWrite { session in
            var gone: [Int64] = []
            for id in ids {
                if let path = try await session.value("SELECT relativePath FROM asset WHERE id = \(id)", as: String.self), isGone(path) {
                    gone.append(id)
                }
            }
            try await session.removeAssets(gone)
            return gone.count
        }
    }

    package func forget(failureFolders: [String], ignoredFolders: [String], directories: [String]) async throws {
        try await recordingWrite { session in
            for directory in failureFolders { try await session.execute("DELETE FROM scan_failure WHERE directoryPath = \(directory)") }
            for directory in ignoredFolders { try await session.execute("DELETE FROM ignored_path WHERE directoryPath = \(directory)") }
            for directory in directories {
                guard let uuid = try await session.value("""
                    DELETE FROM directory WHERE relativePath = \(directory)
                        AND NOT EXISTS (SELECT 1 FROM asset WHERE asset.directoryId = directory.id)
                    RETURNING uuid
                    """, as: UUID.self) else { continue }
                try await session.recordChange(.collection, asset: nil, collection: CollectionID.directory(uuid))
            }
        }
    }
}
