import AssetsKit
import Foundation
import GRDB

extension IndexedLibrary {
    /// Applies change requests in one write transaction: all or none.
    ///
    /// Imports are copied first (see ``ChangeRequest/importFile(_:intoAlbum:)``): each file is
    /// read with the library's metadata reader (a file that is not a readable photo or video is
    /// refused, naming it), written under a hidden temporary name and flushed to disk. Then
    /// every request is applied in one transaction, in which each copy takes a free name in
    /// `<root>/Imports/YYYY/MM/` (never replacing a file) and its row. If any request is invalid (an unknown asset, album or folder, a folder that
    /// is not empty, purging an asset not in Recently Deleted, ...) nothing of the batch stays:
    /// the transaction rolls back and the imported copies are removed.
    ///
    /// - Returns: The new assets' local identifiers and the new collections, in request order,
    ///   and the change token after the transaction.
    /// - Throws: ``LibraryError/invalidChange(_:)`` with the reason (also when an import cannot
    ///   be written), or the database's error.
    @discardableResult
    public func performChanges(_ requests: [ChangeRequest]) async throws -> ChangeResult {
        let moment = now()
        let stager = ImportStager(store: originals, reader: reader, now: moment)
        var staged: [StagedImport] = []
        do {
            for request in requests {
                if let file = try await stager.stage(request) { staged.append(file) }
            }
            let (result, originalsToRemove) = try await database.pool.write { [staged] db in
                var batch = ChangeBatch(db: db, now: moment,
                                        recentlyAddedSince: moment.addingTimeInterval(-Self.recentlyAddedInterval), staged: staged)
                for request in requests { try batch.apply(request) }
                let token = try Int64.fetchOne(db, sql: "SELECT MAX(token) FROM change") ?? 0
                return (ChangeResult(insertedAssets: batch.insertedAssets, insertedCollections: batch.insertedCollections,
                                     token: ChangeToken(token)), batch.originalsToRemove)
            }
            for path in originalsToRemove { originals.remove(at: path) }
            return result
        } catch {
            for file in staged { file.remove() }
            throw error
        }
    }

    /// Every change written through this library (scans included) as it is committed, merged
    /// per transaction, from the moment of the call: a change committed right after it returns
    /// is in the stream. The stream ends when the consumer stops listening.
    public func changes() -> AsyncStream<LibraryChange> {
        let (stream, continuation) = AsyncStream<LibraryChange>.makeStream()
        let latestToken = ValueObservation.tracking { db in
            try Int64.fetchOne(db, sql: "SELECT MAX(token) FROM change") ?? 0
        }
        // The observation starts later, in its task: changes committed before its first value
        // are found by comparing that value with the token of now.
        let now = (try? database.pool.read { db in try Int64.fetchOne(db, sql: "SELECT MAX(token) FROM change") ?? 0 }).map(ChangeToken.init)
        let task = Task { [self] in
            var seen = now
            // An observation fails only when the database can no longer be read: the stream ends.
            try? await {
                for try await latest in latestToken.values(in: database.pool) {
                    let token = ChangeToken(latest)
                    if let previous = seen, token > previous {
                        continuation.yield(try await changes(since: previous))
                    }
                    seen = token
                }
            }()
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// The changes recorded after `token`, merged: an asset inserted and then removed in
    /// that span is in neither set. Tokens are rows of the index, so they survive restarts.
    public func changes(since token: ChangeToken) async throws -> LibraryChange {
        try await database.pool.read { db in
            var change = LibraryChange(token: token)
            let rows = try Row.fetchCursor(db, sql: """
                SELECT token, assetUUID, collectionId, kind FROM change WHERE token > ? ORDER BY token
                """, arguments: [token.value])
            while let row = try rows.next() {
                change.token = ChangeToken(row["token"])
                guard let kind = ChangeKind.fromDatabaseValue(row["kind"]) else { continue }
                let asset = (row["assetUUID"] as UUID?).map { AssetIdentifier.local(LocalIdentifier(uuid: $0)) }
                if let collection = (row["collectionId"] as String?).map(CollectionIdentifier.init(rawValue:)) {
                    var membership = change.collections[collection] ?? CollectionChange()
                    if let asset { membership.merge(kind, asset) } else { membership.collectionChanged = true }
                    change.collections[collection] = membership
                } else if let asset {
                    change.merge(kind, asset)
                }
            }
            return change
        }
    }
}

private extension LibraryChange {
    mutating func merge(_ kind: ChangeKind, _ asset: AssetIdentifier) {
        Merge.apply(kind, asset, inserted: &insertedAssets, removed: &removedAssets, changed: &changedAssets)
    }
}

private extension CollectionChange {
    mutating func merge(_ kind: ChangeKind, _ asset: AssetIdentifier) {
        Merge.apply(kind, asset, inserted: &inserted, removed: &removed, changed: &changed)
    }
}

/// How one recorded change folds into the changes before it.
private enum Merge {
    static func apply(_ kind: ChangeKind, _ asset: AssetIdentifier, inserted: inout Set<AssetIdentifier>,
                      removed: inout Set<AssetIdentifier>, changed: inout Set<AssetIdentifier>) {
        switch kind {
        case .inserted:
            if removed.remove(asset) != nil { changed.insert(asset) } else { inserted.insert(asset) }
        case .removed:
            changed.remove(asset)
            if inserted.remove(asset) == nil { removed.insert(asset) }
        case .changed:
            if !inserted.contains(asset) { changed.insert(asset) }
        case .collection:
            break
        }
    }
}
