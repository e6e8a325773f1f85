import AssetsKit
import Foundation
import IndexedLibrary
import PostgresNIO

/// Change requests applied inside one write transaction on PostgreSQL, as SQLite's
/// `ChangeBatch` applies them: any invalid request throws `LibraryError.invalidChange(_:)`
/// (worded by `InvalidChange`) and the transaction rolls back, so a batch is all or none, and
/// every write records the same `change` rows.
struct PostgresChangeBatch {
    let session: PostgresSession
    let now: Date
    let recentlyAddedSince: Date
    /// The files of the batch's imports, in request order.
    var staged: [StagedImport]
    private(set) var insertedAssets: [AssetIdentifier] = []
    private(set) var insertedCollections: [CollectionIdentifier] = []
    /// Stored paths of purged imported assets, to remove once the transaction has committed.
    private(set) var originalsToRemove: [String] = []

    init(session: PostgresSession, now: Date, recentlyAddedSince: Date, staged: [StagedImport]) {
        self.session = session
        self.now = now
        self.recentlyAddedSince = recentlyAddedSince
        self.staged = staged
    }

    mutating func apply(_ request: ChangeRequest) async throws {
        switch request {
        case .importFile(_, let album), .importData(_, _, let album):
            try await insertStagedImport(intoAlbum: album)
        case let .createAlbum(title, folder):
            insertedCollections.append(try await createCollection(title: title, kind: .album, inFolder: folder))
        case let .createFolder(title, folder):
            insertedCollections.append(try await createCollection(title: title, kind: .folder, inFolder: folder))
        case let .renameCollection(collection, title):
            try await rename(collection, to: title)
        case .deleteCollection(let collection):
            try await delete(collection)
        case let .addAssets(assets, album):
            try await add(assets, to: album)
        case let .removeAssets(assets, album):
            try await remove(assets, from: album)
        case let .reorderAssets(assets, album):
            try await reorder(assets, in: album)
        case let .setFavorite(assets, value):
            try await update(assets) { $0.isFavorite = value }
        case let .setHidden(assets, value):
            try await update(assets) { $0.isHidden = value }
        case .delete(let assets):
            let moment = now.timeIntervalSince1970
            try await update(assets) { if $0.deletedAt == nil { $0.deletedAt = moment } }
        case .restore(let assets):
            try await update(assets) { $0.deletedAt = nil }
        case .purge(let assets):
            try await purge(assets)
        }
    }

    // MARK: Assets

    /// The row of an asset named in a request (Recently Deleted included).
    func record(_ identifier: AssetIdentifier) async throws -> AssetRecord {
        guard let record = try await session.record(uuid: identifier.uuid) else { throw InvalidChange.noAsset(identifier) }
        return record
    }

    private mutating func insertStagedImport(intoAlbum album: CollectionIdentifier?) async throws {
        let staged = staged.removeFirst()
        let original = try staged.publish()
        var record = AssetRecord(original: original, metadata: staged.metadata, fingerprint: staged.fingerprint, uuid: UUID(),
                                 directoryId: try await session.directoryID(forPath: original.folder), addedAt: now)
        record.isImported = true
        try await record.insert(session)
        let identifier = AssetIdentifier.local(LocalIdentifier(uuid: record.uuid))
        try await session.recordChange(.inserted, asset: record.uuid)
        try await session.recordTransition(of: record.uuid, from: [],
                                           to: try await session.visibleCollections(of: record, recentlyAddedSince: recentlyAddedSince))
        if let album { try await add([identifier], to: album) }
        insertedAssets.append(identifier)
    }

    /// Changes the person's marks of assets (favourite, hidden, deleted) and records how the
    /// listings moved. A request that changes nothing records nothing.
    private func update(_ identifiers: [AssetIdentifier], _ change: (inout AssetRecord) -> Void) async throws {
        for identifier in identifiers {
            let old = try await record(identifier)
            var new = old
            change(&new)
            guard new.isFavorite != old.isFavorite || new.isHidden != old.isHidden || new.deletedAt != old.deletedAt else { continue }
            let before = try await session.visibleCollections(of: old, recentlyAddedSince: recentlyAddedSince)
            try await session.execute("""
                UPDATE asset SET isFavorite = \(new.isFavorite), isHidden = \(new.isHidden), deletedAt = \(new.deletedAt) WHERE id = \(new.id)
                """)
            let wasListed = old.deletedAt == nil, isListed = new.deletedAt == nil
            try await session.recordChange(wasListed == isListed ? .changed : (isListed ? .inserted : .removed), asset: new.uuid)
            try await session.recordTransition(of: new.uuid, from: before,
                                               to: try await session.visibleCollections(of: new, recentlyAddedSince: recentlyAddedSince))
        }
    }

    /// Removes assets in Recently Deleted for good, remembering the path in `ignored_path` so a
    /// rescan does not adopt the file again; an imported file is removed after the commit.
    private mutating func purge(_ identifiers: [AssetIdentifier]) async throws {
        for identifier in identifiers {
            let record = try await record(identifier)
            guard record.deletedAt != nil else { throw InvalidChange.notInRecentlyDeleted(identifier, filename: record.filename) }
            let before = try await session.visibleCollections(of: record, recentlyAddedSince: recentlyAddedSince)
            try await session.execute("""
                INSERT INTO ignored_path (relativePath, directoryPath, byteSize, modificationTime)
                VALUES (\(record.relativePath), \((record.relativePath as NSString).deletingLastPathComponent), \(record.byteSize), \(record.modificationTime))
                ON CONFLICT (relativePath) DO UPDATE SET directoryPath = excluded.directoryPath, byteSize = excluded.byteSize,
                    modificationTime = excluded.modificationTime
                """)
            try await session.execute("DELETE FROM asset WHERE id = \(record.id)")
            try await session.recordChange(.removed, asset: record.uuid)
            try await session.recordTransition(of: record.uuid, from: before, to: [])
            if record.isImported { originalsToRemove.append(record.relativePath) }
        }
    }
}
