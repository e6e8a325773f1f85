import AssetsKit
import Foundation

/// Where a picker server keeps its sessions, their picks, Done and Cancel, their expiry and the
/// latest base-URL expiry given to their client: everything about a session that must outlive
/// the process that served a request of it.
///
/// Two implementations: ``MemorySessionStore``, for one server, and a PostgreSQL store
/// (`PostgresSessionStore`), with which any number of servers answer
/// any request of any session and a server can be killed between two requests without losing a
/// session, a pick or Done. Every operation is one transaction in the PostgreSQL store, so a
/// store's answer is the same whichever server asks:
///
/// - Changes to one session take turns (its row is locked for the change), so two servers
///   picking in one session keep one pick order, never hold an asset twice and never hold more
///   than the session's maximum; Done or Cancel on one server is seen by the other's next pick,
///   which is refused.
/// - Expiry is measured by the store's clock (``currentTime()``): the database's, not a
///   server's, so no process owns it.
/// - Budgets of work (renders per session, prefetch, uploads, the sign-in throttle) and caches
///   of the library are not here: they stay in each process.
///
/// A store's own failure (the database unreachable) is thrown as ``SessionStoreFailure``,
/// never answered as an unknown session.
public protocol SessionStoring: Sendable {
    /// How long a session lives after it is created.
    var lifetime: Duration { get }

    /// The store's time now: what expiry is measured against, and what a base URL's expiry and
    /// a session's time left are counted from.
    func currentTime() async throws -> Date

    /// Starts a session with `settings`, an empty selection and the client's `preselected`
    /// identifiers kept unresolved until the person opens the picker.
    /// - Parameters:
    ///   - settings: The session's maximum, media filter and order.
    ///   - preselected: The client's identifiers to start the selection with, kept as given.
    ///   - place: ``SessionPlace/own`` for the person's own sessions (which ``isOwn(_:)`` then
    ///     names), else ``SessionPlace/shared``, the places client programs share.
    /// - Throws: ``PickerSessionError/tooManySessions(_:)`` when the places it may take are all
    ///   taken, ``PickerSessionError/tooManyOwnSessions(_:)`` when the person's own are, counted
    ///   over every server of the store.
    func create(settings: PickerSessionSettings, preselected: [String],
                place: SessionPlace) async throws -> PickerSession

    /// The session with this identifier, unless it is unknown, deleted or expired.
    func session(_ id: String) async throws -> PickerSession?

    /// The session whose picker URI carries `id` and `token` (compared in constant time),
    /// unless it is unknown, deleted or expired; an ended (Done, Cancel) one is returned.
    func pickerSession(_ id: String, token: String) async throws -> PickerSession?

    /// Whether the session whose picker URI carries `id` and `token` expired lately: for one
    /// more lifetime after its expiry its picker URI answers "gone", not "unknown".
    func hasExpired(_ id: String, token: String) async throws -> Bool

    /// Whether `id` is one of the person's own live sessions (made in a reserved place).
    func isOwn(_ id: String) async throws -> Bool

    /// Starts the session's selection with its preselection, resolved, unless a request on
    /// any server did so first: the first resolution counts.
    /// - Throws: ``PickerSessionError/notPicking`` when picking is over.
    func applyPreselection(_ preselection: Preselection, session id: String, token: String) async throws -> PickerSession

    /// Picks `asset` after the session's other picks; picking a picked asset again changes nothing.
    /// - Throws: ``PickerSessionError/notPicking`` when picking is over, ``SelectionError``
    ///   when the selection is full or the asset's media is not allowed; nothing changes then.
    func pick(_ asset: PickedAsset, session id: String, token: String) async throws -> PickerSession

    /// Unpicks the asset with `uuid`.
    /// - Throws: ``PickerSessionError/notPicking`` when picking is over.
    func unpick(_ uuid: UUID, session id: String, token: String) async throws -> PickerSession

    /// Makes `assets` the session's picks, in this order (repeats dropped), all or none.
    /// - Throws: ``PickerSessionError/notPicking`` when picking is over, ``SelectionError``
    ///   when they are too many or one is not allowed; nothing changes then.
    func replacePicks(_ assets: [PickedAsset], session id: String, token: String) async throws -> PickerSession

    /// Ends picking with Done (``PickerSessionState/complete``) or Cancel
    /// (``PickerSessionState/cancelled``), once.
    /// - Throws: ``PickerSessionError/notPicking`` when picking is already over, on whichever
    ///   server it ended.
    func finish(_ id: String, token: String, state: PickerSessionState) async throws -> PickerSession

    /// Forgets the session: every URL of it answers as an unknown one from now on, on every server.
    /// - Returns: Whether there was such a session.
    @discardableResult
    func delete(_ id: String) async throws -> Bool

    /// The session's states from now on, whichever server changed it, until it is deleted or
    /// expires; empty when there is no such session. Each state is newer than the last one
    /// yielded; states in between may be skipped.
    func updates(of id: String) async throws -> AsyncStream<PickerSession>

    /// Notes that a listing of the session's picks gave base URLs expiring at `expiry` (unix
    /// seconds): the latest such expiry is kept with the session, for every server to check.
    func recordBaseURLExpiry(_ expiry: Int64, session id: String) async throws

    /// Whether `expiry` (unix seconds) is no later than the latest one given in a listing of
    /// the session's picks, on any server, and has not passed: a base URL whose expiry was
    /// edited to a later time is refused.
    func honoursBaseURLExpiry(_ expiry: Int64, session id: String) async throws -> Bool
}

extension SessionStoring {
    /// Starts a session with `settings` and nothing preselected, in one of the places client
    /// programs share (``SessionPlace/shared``).
    public func create(settings: PickerSessionSettings) async throws -> PickerSession {
        try await create(settings: settings, preselected: [], place: .shared)
    }
}
