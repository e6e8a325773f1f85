import AssetsKit
import Foundation
import Synchronization

/// The picker sessions of one server, kept in its memory: created by clients, picked in by
/// people, ended by Done, Cancel, deletion or expiry. The default store of a picker server on
/// one machine; a restart ends every session.
///
/// An expired session is forgotten at its first use after its expiry time (and swept when
/// sessions are created), so every URL of it answers as an unknown one; only its picker URI is
/// remembered for one more lifetime, so that the person is told it ended (``hasExpired(_:token:)``).
public final class MemorySessionStore: SessionStoring {
    /// How long a session lives after it is created.
    public let lifetime: Duration
    /// The most sessions alive at once; creating one more fails.
    public let capacity: Int
    /// The most of the person's own sessions (``SessionPlace/own``) alive at once: as many
    /// places of the capacity are kept for them.
    public let ownCapacity: Int
    private let now: @Sendable () -> Date
    /// Every operation is a few dictionary reads and writes: a lock, not an actor.
    private let state = Mutex(State())

    /// A live session and what is kept with it.
    private struct Entry {
        var session: PickerSession
        /// Made in an ``SessionPlace/own`` place.
        let own: Bool
        /// The latest base-URL expiry given in a listing of its picks (unix seconds).
        var baseURLExpiry: Int64?
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// The picker tokens of sessions that expired, and when they may be forgotten.
        var expired: [String: (token: String, forgetAt: Date)] = [:]
        var watchers: [String: [UUID: AsyncStream<PickerSession>.Continuation]] = [:]
        /// Watchers of sessions that ended, to be finished once the lock is released (finishing
        /// runs their termination handlers, which take the lock).
        var ended: [AsyncStream<PickerSession>.Continuation] = []

        /// The session's entry, unless it is unknown, deleted or expired at `time` (then it ends now).
        mutating func entry(_ id: String, at time: Date) -> Entry? {
            guard let entry = entries[id] else { return nil }
            guard entry.session.expireTime > time else {
                expire(entry.session)
                return nil
            }
            return entry
        }

        mutating func expire(_ session: PickerSession) {
            end(session.id)
            let lifetime = session.expireTime.timeIntervalSince(session.createTime)
            expired[session.id] = (session.pickerToken, session.expireTime.addingTimeInterval(lifetime))
        }

        mutating func pickerSession(_ id: String, token: String, at time: Date) -> PickerSession? {
            guard let session = entry(id, at: time)?.session, SecretToken.matches(token, session.pickerToken) else { return nil }
            return session
        }

        mutating func end(_ id: String) {
            entries[id] = nil
            ended += (watchers.removeValue(forKey: id) ?? [:]).values
        }

        mutating func sweepExpired(at time: Date) {
            for entry in entries.values where entry.session.expireTime <= time { expire(entry.session) }
            expired = expired.filter { $0.value.forgetAt > time }
        }
    }

    /// A store whose sessions live `lifetime` (default 60 minutes), at most `capacity` at once,
    /// `ownCapacity` of them the person's own; `now` is the clock.
    public init(lifetime: Duration = .seconds(3_600), capacity: Int = 10_000, ownCapacity: Int = 20,
                now: @escaping @Sendable () -> Date = Date.init) {
        precondition(ownCapacity <= capacity, "the own sessions' places are some of the capacity")
        self.lifetime = lifetime
        self.capacity = capacity
        self.ownCapacity = ownCapacity
        self.now = now
    }

    /// The store's time now: what expiry is measured against (the wall clock unless a test gave another).
    public func currentTime() -> Date { now() }

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

    public func create(settings: PickerSessionSettings, preselected: [String],
                       place: SessionPlace) throws(PickerSessionError) -> PickerSession {
        let created = now()
        let session = PickerSession(id: SecretToken.make(), pickerToken: SecretToken.make(), settings: settings,
                                    createTime: created, expireTime: created.addingTimeInterval(lifetime.seconds),
                                    selection: PickSelection(maximum: settings.maxItems, filter: settings.mediaFilter),
                                    pendingPreselection: preselected)
        let (capacity, ownCapacity) = (capacity, ownCapacity)
        let refusal = withState { state -> PickerSessionError? in
            state.sweepExpired(at: created)
            let own = state.entries.values.filter(\.own).count
            switch place {
            case .shared: guard state.entries.count - own < capacity - ownCapacity else { return .tooManySessions(capacity - ownCapacity) }
            case .own: guard own < ownCapacity else { return .tooManyOwnSessions(ownCapacity) }
            }
            guard state.entries.count < capacity else { return .tooManySessions(capacity) }
            state.entries[session.id] = Entry(session: session, own: place == .own)
            return nil
        }
        if let refusal { throw refusal }
        return session
    }

    public func session(_ id: String) -> PickerSession? {
        let time = now()
        return withState { $0.entry(id, at: time)?.session }
    }

    public func pickerSession(_ id: String, token: String) -> PickerSession? {
        let time = now()
        return withState { $0.pickerSession(id, token: token, at: time) }
    }

    public func hasExpired(_ id: String, token: String) -> Bool {
        let time = now()
        return withState { state in
            if state.entry(id, at: time) != nil { return false }
            guard let entry = state.expired[id], entry.forgetAt > time else { return false }
            return SecretToken.matches(token, entry.token)
        }
    }

    public func isOwn(_ id: String) -> Bool {
        let time = now()
        return withState { $0.entry(id, at: time)?.own ?? false }
    }

    public func applyPreselection(_ preselection: Preselection, session id: String, token: String) throws -> PickerSession {
        try update(id, token: token) { session in
            guard !session.pendingPreselection.isEmpty else { return }
            try? session.selection.replace(with: preselection.assets)
            session.droppedPreselected = preselection.dropped
            session.pendingPreselection = []
        }
    }

    public func pick(_ asset: PickedAsset, session id: String, token: String) throws -> PickerSession {
        try update(id, token: token) { try $0.selection.add(asset) }
    }

    public func unpick(_ uuid: UUID, session id: String, token: String) throws -> PickerSession {
        try update(id, token: token) { $0.selection.remove(uuid) }
    }

    public func replacePicks(_ assets: [PickedAsset], session id: String, token: String) throws -> PickerSession {
        try update(id, token: token) { try $0.selection.replace(with: assets) }
    }

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
            state.entries[id]?.session = session
            for continuation in state.watchers[id, default: [:]].values { continuation.yield(session) }
            return session
        }
    }

    @discardableResult
    public func delete(_ id: String) -> Bool {
        let time = now()
        return withState { state in
            guard state.entry(id, at: time) != nil else { return false }
            state.end(id)
            return true
        }
    }

    public func updates(of id: String) -> AsyncStream<PickerSession> {
        let (stream, continuation) = AsyncStream<PickerSession>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let key = UUID(), time = now()
        let watching = withState { state in
            guard state.entry(id, at: time) != nil else { return false }
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

    public func recordBaseURLExpiry(_ expiry: Int64, session id: String) {
        let time = now()
        withState { state in
            guard let entry = state.entry(id, at: time) else { return }
            state.entries[id]?.baseURLExpiry = max(entry.baseURLExpiry ?? .min, expiry)
        }
    }

    public func honoursBaseURLExpiry(_ expiry: Int64, session id: String) -> Bool {
        let time = now()
        guard Double(expiry) > time.timeIntervalSince1970 else { return false }
        return withState { state in
            state.entry(id, at: time)?.baseURLExpiry.map { expiry <= $0 } ?? false
        }
    }

    /// How many sessions are alive.
    public var count: Int {
        let time = now()
        return withState { state in
            state.sweepExpired(at: time)
            return state.entries.count
        }
    }
}
