import AssetsKit
import Foundation
import PickerSessions
import PostgresIndex
import PostgresNIO

/// A session as its row and its picks' rows read (the session's columns joined with each pick,
/// in pick order), made back into a ``PickerSession``.
struct PostgresSessionRecord: Sendable {
    let session: PickerSession
    let version: Int64
    let nextPosition: Int64

    /// The columns ``read(_:)`` selects, the session's table as `s`, the picks' as `p`.
    static let columns = """
        s.id, s.picker_token, s.max_items, s.media_filter, s.pick_order, s.state, s.create_time, s.expire_time,
        s.pending_preselection, s.dropped_preselected, s.next_position, s.version,
        p.asset_uuid, p.media_type, p.byte_size, p.creation_date, p.filename
        """

    /// The record of `rows` (one per pick, or one with no pick), `nil` for none.
    init?(_ rows: [PostgresRow]) throws {
        guard let first = rows.first?.makeRandomAccess() else { return nil }
        let maximum = try first["max_items"].decode(Int.self)
        guard let filter = MediaFilter(rawValue: try first["media_filter"].decode(String.self)),
              let order = PickOrder(rawValue: try first["pick_order"].decode(String.self)),
              let state = PickerSessionState(rawValue: try first["state"].decode(String.self)) else {
            throw PostgresDecodingError.Code.failure
        }
        let picks = try rows.compactMap { row -> PickedAsset? in
            let row = row.makeRandomAccess()
            guard let uuid = try row["asset_uuid"].decode(UUID?.self) else { return nil }
            return PickedAsset(uuid: uuid, mediaType: try row["media_type"].decode(Int16.self) == 1 ? .video : .photo,
                               byteSize: try row["byte_size"].decode(Int64.self),
                               creationDate: Date(timeIntervalSince1970: try row["creation_date"].decode(Double.self)),
                               filename: try row["filename"].decode(String.self))
        }
        session = PickerSession(id: try first["id"].decode(String.self), pickerToken: try first["picker_token"].decode(String.self),
                                settings: PickerSessionSettings(maxItems: maximum, mediaFilter: filter, order: order),
                                createTime: try first["create_time"].decode(Date.self), expireTime: try first["expire_time"].decode(Date.self),
                                state: state, selection: PickSelection(maximum: maximum, filter: filter, restoring: picks),
                                pendingPreselection: try first["pending_preselection"].decode([String].self),
                                droppedPreselected: try first["dropped_preselected"].decode([String].self))
        version = try first["version"].decode(Int64.self)
        nextPosition = try first["next_position"].decode(Int64.self)
    }

    /// The live session `id` at `time` (`nil`: the database's now) with its picks; with `locking`,
    /// its row is locked first, until the transaction ends, so that changes to it take turns.
    ///
    /// The lock is its own statement: a joined read that waited for the lock would see the
    /// session's row as the other change left it but the picks as they were before (read
    /// committed re-reads only the locked row), and so count them wrong. The read after it is a
    /// new statement, which sees every change committed before the lock was granted.
    static func read(_ id: String, at time: Date?, locking: Bool = false, in session: PostgresIndex.PostgresSession) async throws -> PostgresSessionRecord? {
        if locking {
            try await session.execute("SELECT 1 FROM picker_session WHERE id = \(id) FOR UPDATE")
        }
        let rows = try await session.rows("""
            SELECT \(unescaped: columns) FROM picker_session s LEFT JOIN picker_pick p ON p.session_id = s.id
            WHERE s.id = \(id) AND s.expire_time > COALESCE(\(time)::timestamptz, now()) ORDER BY p.position
            """)
        return try PostgresSessionRecord(rows)
    }
}
