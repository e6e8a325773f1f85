import AssetsKit
import Foundation
import PickerSessions
import PostgresIndex
import PostgresNIO

/// The changes a person makes while picking: each one transaction on the session's locked row,
/// checked by the very rules of ``PickSelection`` on the picks as the lock finds them, written
/// as the difference, versioned and notified.
extension PostgresSessionStore {
    public func applyPreselection(_ preselection: Preselection, session id: String, token: String) async throws -> PickerSession {
        try await change(id, token: token) { record, session in
            // The first resolution counts: later ones find nothing pending.
            guard !record.session.pendingPreselection.isEmpty else { return false }
            var selection = record.session.selection
            // As in memory: picks the selection refuses leave it as it was.
            let replaced = (try? selection.replace(with: preselection.assets)) != nil
            if replaced {
                try await session.execute("DELETE FROM picker_pick WHERE session_id = \(id)")
                try await Self.insert(selection.assets, session: id, from: record.nextPosition, in: session)
            }
            try await session.execute("""
                UPDATE picker_session SET pending_preselection = '{}', dropped_preselected = \(preselection.dropped),
                    next_position = next_position + \(Int64(replaced ? selection.assets.count : 0))
                WHERE id = \(id)
                """)
            return true
        }
    }

    public func pick(_ asset: PickedAsset, session id: String, token: String) async throws -> PickerSession {
        try await change(id, token: token) { record, session in
            var selection = record.session.selection
            guard !selection.contains(asset.uuid) else { return false }
            try selection.add(asset)
            try await Self.insert([asset], session: id, from: record.nextPosition, in: session)
            try await session.execute("UPDATE picker_session SET next_position = next_position + 1 WHERE id = \(id)")
            return true
        }
    }

    public func unpick(_ uuid: UUID, session id: String, token: String) async throws -> PickerSession {
        try await change(id, token: token) { record, session in
            guard record.session.selection.contains(uuid) else { return false }
            try await session.execute("DELETE FROM picker_pick WHERE session_id = \(id) AND asset_uuid = \(uuid)")
            return true
        }
    }

    public func replacePicks(_ assets: [PickedAsset], session id: String, token: String) async throws -> PickerSession {
        try await change(id, token: token) { record, session in
            var selection = record.session.selection
            try selection.replace(with: assets)
            try await session.execute("DELETE FROM picker_pick WHERE session_id = \(id)")
            try await Self.insert(selection.assets, session: id, from: record.nextPosition, in: session)
            try await session.execute("""
                UPDATE picker_session SET next_position = next_position + \(Int64(selection.assets.count)) WHERE id = \(id)
                """)
            return true
        }
    }

    public func finish(_ id: String, token: String, state: PickerSessionState) async throws -> PickerSession {
        precondition(state != .picking, "finishing sets complete or cancelled")
        return try await change(id, token: token) { _, session in
            try await session.execute("UPDATE picker_session SET state = \(state.rawValue) WHERE id = \(id)")
            return true
        }
    }

    /// Changes the live, picking session `id` whose token is `token` in one transaction: its row
    /// locked and read with its picks, `body` makes the change (returning whether it changed
    /// anything), then the version goes up and the change is notified, all committed together.
    /// - Throws: ``PickerSessionError/notPicking`` when there is no such session or picking is
    ///   over; what `body` threw (nothing changes then).
    private func change(_ id: String, token: String,
                        _ body: @Sendable (PostgresSessionRecord, PostgresIndex.PostgresSession) async throws -> Bool) async throws -> PickerSession {
        let time = clock.time
        let changed = try await run {
            try await database.transaction { session -> PickerSession in
                guard let record = try await PostgresSessionRecord.read(id, at: time, locking: true, in: session),
                      SecretToken.matches(token, record.session.pickerToken), record.session.state == .picking else {
                    throw PickerSessionError.notPicking
                }
                guard try await body(record, session) else { return record.session }
                let version = try await session.value("UPDATE picker_session SET version = version + 1 WHERE id = \(id) RETURNING version",
                                                      as: Int64.self) ?? record.version + 1
                try await session.execute("SELECT pg_notify(\(PostgresSessionSchema.sessionsChannel), \(id + " " + String(version)))")
                guard let changed = try await PostgresSessionRecord.read(id, at: time, in: session) else { throw PickerSessionError.notPicking }
                return changed.session
            }
        }
        return changed
    }

    /// Inserts `assets` as picks of session `id`, in their order, at positions from `start` on.
    private static func insert(_ assets: [PickedAsset], session id: String, from start: Int64, in session: PostgresIndex.PostgresSession) async throws {
        guard !assets.isEmpty else { return }
        try await session.execute("""
            INSERT INTO picker_pick (session_id, asset_uuid, position, media_type, byte_size, creation_date, filename)
            SELECT \(id), u, \(start) + o - 1, m, b, c, f
            FROM unnest(\(assets.map(\.uuid))::uuid[], \(assets.map { Int16($0.mediaType == .video ? 1 : 0) })::smallint[],
                        \(assets.map(\.byteSize))::bigint[], \(assets.map { $0.creationDate.timeIntervalSince1970 })::float8[],
                        \(assets.map(\.filename))::text[]) WITH ORDINALITY AS t(u, m, b, c, f, o)
            """)
    }
}
