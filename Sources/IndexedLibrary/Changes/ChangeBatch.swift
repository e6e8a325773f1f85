import AssetsKit
import Foundation
import GRDB

/// Change requests applied inside one write transaction. Any invalid request throws
/// ``LibraryError/invalidChange(_:)`` and the transaction rolls back, so a batch is all or none.
/// Every write records its `change` rows (see ``Database/recordTransition(of:from:to:)``).
struct ChangeBatch {
    let db: Database
    let now: Date
    let recentlyAddedSince: Date
    /// The files of the batch's imports, in request order.
    var staged: [StagedImport]
    private(set) var insertedAssets: [AssetIdentifier] = []
    private(set) var insertedCollections: [CollectionIdentifier] = []
    /// Stored paths of purged imported assets, to remove once the transaction has committed.
    private(set) var originalsToRemove: [String] = []

    init(db: Database, now: Date, recentlyAddedSince: Date, staged: [StagedImport]) {
        self.db = db
        self.now = now
        self.recentlyAddedSince = recentlyAddedSince
        self.staged = staged
    }

    mutating func apply(_ request: ChangeRequest) throws {
        switch request {
        case .importFile(_, let album), .importData(_, _, let album):
            try insertStagedImport(intoAlbum: album)
        case let .createAlbum(title, folder):
            insertedCollections.append(try createCollection(title: title, kind: .album, inFolder: folder))
        case let .createFolder(title, folder):
            insertedCollections.append(try createCollection(title: title, kind: .folder, inFolder: folder))
        case let .renameCollection(collection, title):
            try rename(collection, to: title)
        case .deleteCollection(let collection):
            try delete(collection)
        case let .addAssets(assets, album):
            try add(assets, to: album)
        case let .removeAssets(assets, album):
            try remove(assets, from: album)
        case let .reorderAssets(assets, album):
            try reorder(assets, in: album)
        case let .setFavorite(assets, value):
            try update(assets) { $0.isFavorite = value }
        case let .setHidden(assets, value):
            try update(assets) { $0.isHidden = value }
        case .delete(let assets):
            try update(assets) { if $0.deletedAt == nil { $0.deletedAt = now.timeIntervalSince1970 } }
        case .restore(let assets):
            try update(assets) { $0.deletedAt = nil }
        case .purge(let assets):
            try purge(assets)
        }
    }

    // MARK: Assets

    /// The row of an asset named in a request (Recently Deleted included).
    func record(_ identifier: AssetIdentifier) throws -> AssetRecord {
        guard let record = try AssetRecord.filter(Column("uuid") == identifier.uuid).fetchOne(db) else {
            throw InvalidChange.noAsset(identifier)
        }
        return record
    }

    private mutating func insertStagedImport(intoAlbum album: CollectionIdentifier?) throws {
        let staged = staged.removeFirst()
        let original = try staged.publish()
        var record = AssetRecord(original: original, metadata: staged.metadata, fingerprint: staged.fingerprint, uuid: UUID(),
                                 directoryId: try DirectoryRecord.id(forPath: original.folder, in: db),
                                 addedAt: now)
        record.isImported = true
        try record.insert(db)
        let identifier = AssetIdentifier.local(LocalIdentifier(uuid: record.uuid))
        try db.recordChange(.inserted, asset: record.uuid)
        try db.recordTransition(of: record.uuid, from: [], to: record.visibleCollections(db, recentlyAddedSince: recentlyAddedSince))
        if let album { try add([identifier], to: album) }
        insertedAssets.append(identifier)
    }

    /// Changes the person's marks of assets (favourite, hidden, deleted) and records how the
    /// listings moved. A request that changes nothing records nothing.
    private func update(_ identifiers: [AssetIdentifier], _ change: (inout AssetRecord) -> Void) throws {
        for identifier in identifiers {
            let old = try record(identifier)
            var new = old
            change(&new)
            guard new.isFavorite != old.isFavorite || new.isHidden != old.isHidden || new.deletedAt != old.deletedAt else { continue }
            try new.update(db)
            let wasListed = old.deletedAt == nil, isListed = new.deletedAt == nil
            try db.recordChange(wasListed == isListed ? .changed : (isListed ? .inserted : .removed), asset: new.uuid)
            try db.recordTransition(of: new.uuid, from: old.visibleCollections(db, recentlyAddedSince: recentlyAddedSince),
                                    to: new.visibleCollections(db, recentlyAddedSince: recentlyAddedSince))
        }
    }

    /// Removes assets in Recently Deleted for good. The path is remembered in `ignored_path`
    /// (with the file's size and modification time) so a rescan does not adopt the file again;
    /// an imported file is removed after the commit, an adopted original is left untouched.
    private mutating func purge(_ identifiers: [AssetIdentifier]) throws {
        for identifier in identifiers {
            let record = try record(identifier)
            guard record.deletedAt != nil else {
                throw InvalidChange.notInRecentlyDeleted(identifier, filename: record.filename)
            }
            let before = try record.visibleCollections(db, recentlyAddedSince: recentlyAddedSince)
            try db.execute(sql: """
                INSERT OR REPLACE INTO ignored_path (relativePath, directoryPath, byteSize, modificationTime) VALUES (?, ?, ?, ?)
                """, arguments: [record.relativePath, (record.relativePath as NSString).deletingLastPathComponent,
                                 record.byteSize, record.modificationTime])
            try record.delete(db)
            try db.recordChange(.removed, asset: record.uuid)
            try db.recordTransition(of: record.uuid, from: before, to: [])
            if record.isImported {
                originalsToRemove.append(record.relativePath)
            }
        }
    }
}
