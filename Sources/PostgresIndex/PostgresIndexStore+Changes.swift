import AssetsKit
import Foundation
import IndexedLibrary
import PostgresNIO

/// Change batches and the change history (`change`, its identity token) in the database.
extension PostgresIndexStore {
    package func apply(_ requests: [ChangeRequest], staged: [StagedImport], now: Date,
                       recentlyAddedSince: Date) async throws -> (result: ChangeResult, originalsToRemove: [String]) {
        try await recordingWrite { session in
            var batch = PostgresChangeBatch(session: session, now: now, recentlyAddedSince: recentlyAddedSince, staged: staged)
            for request in requests { try await batch.apply(request) }
            let token = try await Self.latestToken(session)
            return (ChangeResult(insertedAssets: batch.insertedAssets, insertedCollections: batch.insertedCollections,
                                 token: ChangeToken(token)), batch.originalsToRemove)
        }
    }

    package func liveChanges() -> AsyncStream<LibraryChange> {
        watch.changes(reading: self)
    }

    /// The token of the latest change recorded.
    static func latestToken(_ session: PostgresSession) async throws -> Int64 {
        try await session.value("SELECT MAX(token) FROM change", as: Int64.self) ?? 0
    }

    package func changes(since token: ChangeToken) async throws -> LibraryChange {
        try await database.read { session in
            let latest = try await Self.latestToken(session)
            guard token.value <= latest else { throw LibraryError.futureChangeToken(token, latest: ChangeToken(latest)) }
            var change = LibraryChange(token: token)
            for row in try await session.rows("""
                SELECT token, assetUUID, collectionId, kind FROM change WHERE token > \(token.value) ORDER BY token
                """) {
                if let recorded = try RecordedChange(postgresRow: row) { change.fold(recorded) }
            }
            return change
        }
    }
}
