import AssetsKit
import Foundation
import GRDB

/// Change batches and the change history (`change`, its autoincrement token) in the index.
extension SQLiteIndexStore {
    func apply(_ requests: [ChangeRequest], staged: [StagedImport], now: Date,
               recentlyAddedSince: Date) async throws -> (result: ChangeResult, originalsToRemove: [String]) {
        try await database.pool.write { db in
            var batch = ChangeBatch(db: db, now: now, recentlyAddedSince: recentlyAddedSince, staged: staged)
            for request in requests { try batch.apply(request) }
            let token = try Int64.fetchOne(db, sql: "SELECT MAX(token) FROM change") ?? 0
            return (ChangeResult(insertedAssets: batch.insertedAssets, insertedCollections: batch.insertedCollections,
                                 token: ChangeToken(token)), batch.originalsToRemove)
        }
    }

    /// Follows the latest token: each new one yields the changes since the one before. Commits
    /// through this process's pool are seen at once (a GRDB `ValueObservation`); commits by other
    /// processes sharing the index (`assets-picker delete` while `serve` runs, another `index`)
    /// are seen by reading the latest token every ``otherProcessesPollInterval``, so that what
    /// another process deleted, hid or moved is refused within that time. The stream ends when
    /// the consumer stops listening.
    func liveChanges() -> AsyncStream<LibraryChange> {
        let (stream, continuation) = AsyncStream<LibraryChange>.makeStream()
        let latestToken = ValueObservation.tracking(Self.latestToken)
        // The observation starts later, in its task: changes committed before its first value
        // are found by comparing that value with the token of now.
        let now = (try? database.pool.read(Self.latestToken)).map(ChangeToken.init)
        let (tokens, tokenSink) = AsyncStream<Int64>.makeStream()
        let task = Task { [self] in
            await withDiscardingTaskGroup { group in
                group.addTask { [database] in
                    // An observation fails only when the database can no longer be read: the stream ends.
                    try? await { for try await latest in latestToken.values(in: database.pool) { tokenSink.yield(latest) } }()
                    tokenSink.finish()
                }
                group.addTask { [database] in
                    while (try? await Task.sleep(for: Self.otherProcessesPollInterval)) != nil {
                        if let latest = try? await database.pool.read(Self.latestToken) { tokenSink.yield(latest) }
                    }
                }
                var seen = now
                for await latest in tokens {
                    let token = ChangeToken(latest)
                    if let previous = seen, token <= previous { continue }
                    if let previous = seen, let change = try? await changes(since: previous) { continuation.yield(change) }
                    seen = token
                }
                group.cancelAll()
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// How often the latest token is read for commits made by other processes.
    static let otherProcessesPollInterval = Duration.seconds(1)

    /// The token of the latest change recorded.
    static func latestToken(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT MAX(token) FROM change") ?? 0
    }

    func changes(since token: ChangeToken) async throws -> LibraryChange {
        try await database.pool.read { db in
            let latest = try Self.latestToken(db)
            guard token.value <= latest else {
                throw LibraryError.futureChangeToken(token, latest: ChangeToken(latest))
            }
            var change = LibraryChange(token: token)
            let rows = try Row.fetchCursor(db, sql: """
                SELECT token, assetUUID, collectionId, kind FROM change WHERE token > ? ORDER BY token
                """, arguments: [token.value])
            while let row = try rows.next() {
                if let recorded = RecordedChange(row: row) { change.fold(recorded) }
            }
            return change
        }
    }
}
