import AssetsKit
import Foundation
import Synchronization

/// The live picker sessions of a server: created by clients, picked in by people, ended by
/// Done, Cancel, deletion or expiry.
///
/// An expired session is forgotten at its first use after its expiry time (and swept when
/// sessions are created), so every URL of it answers as an unknown one; only its picker URI is
/// remembered for one more lifetime, so that the person is told it ended (``hasExpired(_:token:)``).
public final class PickerSessionStore: Sendable {
    /// How long a session lives after it is created.
    public let lifetime: Duration
    /// The most sessions alive at once; creating one more fails.
    public let capacity: Int
    private let now: @Sendable () -> Date
    /// Every operation is a few dictionary reads and writes: a lock, not an actor, so that the
    /// check each picker request makes costs no hand-off between threads.
    private let state = Mutex(State())

    private struct State {
        var sessions: [String: PickerSession] = [:]
        /// The live sessions made in ``Place/reserved`` places.
        var reserved: Set<String> = []
        /// The picker tokens of sessions that expired, and when they may be forgotten.
        var expired: [String: (token: String, forgetAt: Date)] = [:]
        var watchers: [String: [UUID: AsyncStream<PickerSession>.Continuation]] = [:]
        /// Watchers of sessions that ended, to be finished once the lock is released (finishing
        /// runs their termination handlers, which take the lock).
        var ended: [AsyncStream<PickerSession>.Continuation] = []

        /// The session, unless it is unknown, deleted or expired at `time` (then it ends now).
        mutating func session(_ id: String, at time: Date) -> PickerSession? {
            guard let session = sessions[id] else { return nil }
            guard session.expireTime > time else {
                expire(session)
                return nil
            }
            return session
        }

        mutating func expire(_ session: PickerSession) {
            end(session.id)
            let lifetime = session.expireTime.timeIntervalSince(session.createTime)
            expired[session.id] = (session.pickerToken, session.expireTime.addingTimeInterval(lifetime))
        }

        mutating func pickerSession(_ id: String, token: String, at time: Date) -> PickerSession? {
            guard let session = session(id, at: time), SecretToken.matches(token, session.pickerToken) else { return nil }
            return session
        }

        mutating func end(_ id: String) {
            sessions[id] = nil
            reserved.remove(id)
            ended += (watchers.removeValue(forKey: id) ?? [:]).values
        }

        mutating func sweepExpired(at time: Date) {
            for session in sessions.values where session.expireTime <= time { expire(session) }
            expired = expired.filter { $0.value.forgetAt > time }
        }
    }

    /// A store whose sessions live `lifetime` (default 60 minutes); `now` is the clock.
    public init(lifetime: Duration = .seconds(3_600), capacity: Int = 10_000,
                now: @escaping @Sendable () -> Date = Date.init) {
        self.lifetime = lifetime
        self.capacity = capacity
        self.now = now
    }

    /// The store's time now: what expiry is measured against (the wall clock unless a test gave another).
    public var currentTime: Date { now() }

    /// Runs `body` on the state under the lock, then finishes the watchers of sessions it ended.
    private func withState<Value>(_ body: (inout State) throws -> Value) rethrows -> Value {
        let (value, ended) = try state.withLock { state in
            let value = try body(&state)
            defer { state.ended = [] }
            return (value, state.ended)
        }
        for continuation in ended { continuation.finish() }
        return value
    }

    /// Which of the store's places a new session may take: the last places of its capacity can be
    /// kept for one kind of session (the person's own, on a picker server), which the others never take.
    public enum Place: Sendable, Equatable {
        /// One of the places all sessions share: the capacity less `leavingFree` places, which
        /// stay for ``reserved`` sessions. Sessions made in reserved places do not count against it.
        case shared(leavingFree: Int)
        /// Any free place, those kept free included; the caller bounds how many it makes.
        case reserved
    }

    /// Starts a session with `settings`, an empty selection and the client's `preselected`
    /// identifiers kept unresolved until the person opens the picker (``PickerSession/pendingPreselection``).
    /// - Parameters:
    ///   - settings: The session's maximum, media filter and order.
    ///   - preselected: The client's identifiers to start the selection with, kept as given.
    ///   - place: Which places it may take; by default any that all share.
    /// - Throws: ``PickerSessionError/tooManySessions(_:)`` when its places are all taken: the
    ///   shared ones (sessions not made ``Place/reserved`` number the capacity less what is kept
    ///   free), or, for a reserved one, the whole capacity.
    public func create(settings: PickerSessionSettings, preselected: [String] = [],
                       place: Place = .shared(leavingFree: 0)) throws(PickerSessionError) -> PickerSession {
        let created = now()
        let session = PickerSession(id: SecretToken.make(), pickerToken: SecretToken.make(), settings: settings,
                                    createTime: created, expireTime: created.addingTimeInterval(lifetime.seconds),
                                    selection: PickSelection(maximum: settings.maxItems, filter: settings.mediaFilter),
                                    pendingPreselection: preselected)
        let capacity = capacity
        let places = switch place {
        case .shared(let free): max(0, capacity - free)
        case .reserved: capacity
        }
        let stored = withState { state in
            state.sweepExpired(at: created)
            // The capacity bounds all; shared places are also bounded apart from reserved ones.
            guard state.sessions.count < capacity, state.sessions.count - state.reserved.count < places else { return false }
            state.sessions[session.id] = session
            if place == .reserved { state.reserved.insert(session.id) }
            return true
        }
        guard stored else { throw .tooManySessions(places) }
        return session
    }

    /// The session with this identifier, unless it is unknown, deleted or expired.
    public func session(_ id: String) -> PickerSession? {
        let time = now()
        return withState { $0.session(id, at: time) }
    }

    /// The session whose picker URI carries `id` and `token` (compared in constant time),
    /// unless it is unknown, deleted or expired. An ended session is returned: the caller
    /// answers its picker URI with "gone".
    public func pickerSession(_ id: String, token: String) -> PickerSession? {
        let time = now()
        return withState { $0.pickerSession(id, token: token, at: time) }
    }

    /// Whether the session whose picker URI carries `id` and `token` expired lately (a wrong
    /// token is no such session).
    public func hasExpired(_ id: String, token: String) -> Bool {
        let time = now()
        return withState { state in
            if state.session(id, at: time) != nil { return false }
            guard let entry = state.expired[id], entry.forgetAt > time else { return false }
            return SecretToken.matches(token, entry.token)
        }
    }

    /// Starts the session's selection with its preselection, resolved (``Preselection/resolve(_:in:settings:)``
    /// of its ``PickerSession/pendingPreselection``), unless that was done already (by a request
    /// that resolved it at the same time): the first resolution counts.
    /// - Throws: ``PickerSessionError/notPicking`` when picking is over.
    public func applyPreselection(_ preselection: Preselection, session id: String, token: String) throws -> PickerSession {
        try update(id, token: token) { session in
            guard !session.pendingPreselection.isEmpty else { return }
            try? session.selection.replace(with: preselection.assets)
            session.droppedPreselected = preselection.dropped
            session.pendingPreselection = []
        }
    }

    /// Picks `asset` in the session after the other picks.
    /// - Throws: ``PickerSessionError/notPicking`` when picking is over, ``SelectionError`` when
    ///   the selection refuses it; the session is unchanged then.
    public func pick(_ asset: Asset, session id: String, token: String) throws -> PickerSession {
        try update(id, token: token) { try $0.selection.add(asset) }
    }

    /// Unpicks the asset with `uuid` in the session.
    /// - Throws: ``PickerSessionError/notPicking`` when picking is over.
    public func unpick(_ uuid: UUID, session id: String, token: String) throws -> PickerSession {
        try update(id, token: token) { $0.selection.remove(uuid) }
    }

    /// Makes `assets` the session's picks, in this order.
    /// - Throws: ``PickerSessionError/notPicking`` when picking is over, ``SelectionError`` when
    ///   the selection refuses them; the session is unchanged then.
    public func replacePicks(_ assets: [Asset], session id: String, token: String) throws -> PickerSession {
        try update(id, token: token) { try $0.selection.replace(with: assets) }
    }

    /// Ends picking: Done (``PickerSessionState/complete``) sets the picks, Cancel sets none.
    /// - Throws: ``PickerSessionError/notPicking`` when picking is already over.
    public func finish(_ id: String, token: String, state: PickerSessionState) throws -> PickerSession {
        precondition(state != .picking, "finishing sets complete or cancelled")
        return try update(id, token: token) { $0.state = state }
    }

    /// Changes the session while the person is picking and tells its watchers.
    private func update(_ id: String, token: String, _ change: (inout PickerSession) throws -> Void) throws -> PickerSession {
        let time = now()
        return try withState { state in
            guard var session = state.pickerSession(id, token: token, at: time), session.state == .picking else {
                throw PickerSessionError.notPicking
            }
            try change(&session)
            state.sessions[id] = session
            for continuation in state.watchers[id, default: [:]].values { continuation.yield(session) }
            return session
        }
    }

    /// Forgets the session: every URL of it answers as an unknown one from now on.
    /// - Returns: Whether there was such a session.
    @discardableResult
    public func delete(_ id: String) -> Bool {
        let time = now()
        return withState { state in
            guard state.session(id, at: time) != nil else { return false }
            state.end(id)
            return true
        }
    }

    /// The session's states from now on (its selection and state changes), until it is
    /// deleted or expires; empty when there is no such session.
    public func updates(of id: String) -> AsyncStream<PickerSession> {
        let (stream, continuation) = AsyncStream<PickerSession>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let key = UUID(), time = now()
        let watching = withState { state in
            guard state.session(id, at: time) != nil else { return false }
            state.watchers[id, default: [:]][key] = continuation
            return true
        }
        guard watching else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.withState { $0.watchers[id]?[key] = nil }
        }
        return stream
    }

    /// How many sessions are alive.
    public var count: Int {
        let time = now()
        return withState { state in
            state.sweepExpired(at: time)
            return state.sessions.count
        }
    }
}
