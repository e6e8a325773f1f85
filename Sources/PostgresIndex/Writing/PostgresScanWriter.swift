import AssetsKit
import Foundation
import IndexedLibrary
import LibraryTree
import MediaProbing
import PostgresNIO

/// A scan's batch written in one transaction, as SQLite's `ScanBatch.apply` writes it.
struct PostgresScanWriter {
    let session: PostgresSession
    let addedAt: Date

    func apply(_ batch: ScanBatch, summary: inout ScanSummary) async throws {
        for folder in batch.folders { try await session.recordDirectory(folder) }
        for path in batch.clearedFailures { try await session.execute("DELETE FROM scan_failure WHERE relativePath = \(path)") }
        for path in batch.clearedIgnores { try await session.execute("DELETE FROM ignored_path WHERE relativePath = \(path)") }
        for (directory, failure) in batch.skipped {
            try await recordFailure(path: failure.path, directory: directory, byteSize: nil, modificationTime: nil, reason: failure.reason)
        }
        for outcome in batch.outcomes {
            switch outcome {
            case let .read(file, nil, metadata, fingerprint):
                try await insert(file, metadata, fingerprint)
                summary.added += 1
            case let .read(file, id?, metadata, fingerprint):
                guard var record = try await session.record(id: id) else { continue }
                record.refresh(from: file.stored, metadata: metadata, fingerprint: fingerprint)
                try await record.update(session)
                try await session.execute("DELETE FROM scan_failure WHERE relativePath = \(file.relativePath)")
                try await session.recordChange(.changed, asset: record.uuid)
                try await session.recordChange(.changed, asset: record.uuid, collection: try await collection(ofDirectory: record.directoryId))
                summary.updated += 1
            case let .moved(file, id):
                guard var record = try await session.record(id: id) else { continue }
                let oldCollection = try await collection(ofDirectory: record.directoryId)
                record.relativePath = file.relativePath
                record.directoryId = try await session.directoryID(forPath: file.directory)
                record.filename = file.filename
                record.modificationTime = file.modificationTime
                try await record.update(session)
                try await session.recordChange(.changed, asset: record.uuid)
                try await session.recordChange(.removed, asset: record.uuid, collection: oldCollection)
                try await session.recordChange(.inserted, asset: record.uuid, collection: try await collection(ofDirectory: record.directoryId))
                summary.moved += 1
            case let .failed(file, id, reason, _):
                try await recordFailure(path: file.relativePath, directory: file.directory, byteSize: file.byteSize,
                                        modificationTime: file.modificationTime, reason: reason)
                if let id {
                    try await session.removeAssets([id])
                    summary.removed += 1
                }
            }
        }
    }

    private func insert(_ file: FileEntry, _ metadata: MediaMetadata, _ fingerprint: String) async throws {
        // An import (or another scan) may have given this path its row since the folder was read.
        if try await session.value("SELECT 1 FROM asset WHERE relativePath = \(file.relativePath)", as: Int.self) != nil { return }
        let directoryId = try await session.directoryID(forPath: file.directory)
        var uuid = AssetUUID.forFile(atRelativePath: file.relativePath)
        if try await session.value("SELECT 1 FROM asset WHERE uuid = \(uuid)", as: Int.self) != nil {
            uuid = UUID() // the path's UUID went with a file that moved away; this is another file
        }
        var record = AssetRecord(original: file.stored, metadata: metadata, fingerprint: fingerprint, uuid: uuid,
                                 directoryId: directoryId, addedAt: addedAt)
        try await record.insert(session)
        try await session.execute("DELETE FROM scan_failure WHERE relativePath = \(file.relativePath)")
        try await session.recordChange(.inserted, asset: uuid)
        try await session.recordChange(.inserted, asset: uuid, collection: CollectionID.directory(AssetUUID.forDirectory(atRelativePath: file.directory)))
    }

    private func recordFailure(path: String, directory: String, byteSize: Int64?, modificationTime: Int64?, reason: String) async throws {
        try await session.execute("""
            INSERT INTO scan_failure (relativePath, directoryPath, byteSize, modificationTime, reason)
            VALUES (\(path), \(directory), \(byteSize), \(modificationTime), \(reason))
            ON CONFLICT (relativePath) DO UPDATE SET
                directoryPath = excluded.directoryPath, byteSize = excluded.byteSize,
                modificationTime = excluded.modificationTime, reason = excluded.reason
            """)
    }

    private func collection(ofDirectory id: Int64) async throws -> CollectionIdentifier? {
        try await session.value("SELECT uuid FROM directory WHERE id = \(id)", as: UUID.self).map(CollectionID.directory)
    }
}
