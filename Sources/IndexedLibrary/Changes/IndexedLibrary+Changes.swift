import AssetsKit
import Foundation

extension IndexedLibrary {
    /// Applies change requests in one write transaction: all or none.
    ///
    /// Imports are copied first (see `ChangeRequest.importFile(_:intoAlbum:)`): each file is
    /// read with the library's metadata reader (a file that is not a readable photo or video is
    /// refused, naming it), written under a hidden temporary name and flushed to disk. Then
    /// every request is applied in one transaction, in which each copy takes a free name in
    /// `<root>/Imports/YYYY/MM/` (never replacing a file) and its row. If any request is invalid (an unknown asset, album or folder, a folder that
    /// is not empty, purging an asset not in Recently Deleted, ...) nothing of the batch stays:
    /// the transaction rolls back and the imported copies are removed.
    ///
    /// - Returns: The new assets' local identifiers and the new collections, in request order,
    ///   and the change token after the transaction.
    /// - Throws: `LibraryError.invalidChange(_:)` with the reason (also when an import cannot
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
            let (result, originalsToRemove) = try await index.apply(
                requests, staged: staged, now: moment, recentlyAddedSince: moment.addingTimeInterval(-Self.recentlyAddedInterval))
            for path in originalsToRemove { originals.remove(at: path) }
            return result
        } catch {
            for file in staged { file.remove() }
            throw error
        }
    }

    /// Every change written through this library (scans included) as it is committed, merged
    /// per transaction, from the moment of the call: a change committed right after it returns
    /// is in the stream. Changes other processes commit to the same index (`assets-picker
    /// delete` while `serve` runs) follow within about a second. The stream ends when the
    /// consumer stops listening.
    public func changes() -> AsyncStream<LibraryChange> {
        index.liveChanges()
    }

    /// The changes recorded after `token`, merged: an asset inserted and then removed in
    /// that span is in neither set. Tokens are rows of the index, so they survive restarts.
    public func changes(since token: ChangeToken) async throws -> LibraryChange {
        try await index.changes(since: token)
    }
}
