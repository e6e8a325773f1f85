import AssetsKit
import Foundation

/// The live picker sessions of a server: created by clients, picked in by people, ended by
/// Done, Cancel, deletion or expiry.
///
/// An expired session is forgotten at its first use after its expiry time (and swept when
/// sessions are created), so every URL of it answers as an unknown one.
public actor PickerSessionStore {
    /// How long a session lives after it is created.
    public let lifetime: Duration
    /// The most sessions alive at once; creating one more fails.
    public let capacity: Int
    private let now: @Sendable () -> Date
    private var sessions: [String: PickerSession] = [:]
    private var watchers: [String: [UUID: AsyncStream<PickerSession>.Continuation]] = [:]

    /// A store whose sessions live `lifetime` (default 60 minutes); `now` is the clock.
    public init(lifetime: Duration = .seconds(3_600), capacity: Int = 10_000,
                now: @escaping @Sendable () -> Date = Date.init) {
        self.lifetime = lifetime
        self.capacity = capacity
        self.now = now
    }

    /// Starts a session with `settings`, its selection holding `preselected` (resolved already).
    /// - Throws: ``PickerSessionError/tooManySessions(_:)`` when ``capacity`` sessions are alive.
    public func create(settings: PickerSessionSettings, preselected: Preselection = .none) throws(PickerSessionError) -> PickerSession {
        sweepExpired()
        guard sessions.count < capacity else { throw .tooManySessions(capacity) }
        var selection = PickSelection(maximum: settings.maxItems, filter: settings.mediaFilter)
        try? selection.replace(with: preselected.assets)
        let created = now()
        let seconds = Double(lifetime.components.seconds) + Double(lifetime.components.attoseconds) / 1e18
        let session = PickerSession(id: SecretToken.make(), pickerToken: SecretToken.make(), settings: settings,
                                    createTime: created, expireTime: created.addingTimeInterval(seconds),
                                    selection: selection, droppedPreselected: preselected.dropped)
        sessions[session.id] = session
        return session
    }

    /// The session with this identifier, unless it is unknown, deleted or expired.
    public func session(_ id: String) -> PickerSession? {
        guard let session = sessions[id] else { return nil }
        guard session.expireTime > now() else {
            end(id)
            return nil
        }
        return session
    }

    /// The session whose picker URI carries `id` and `token` (compared in constant time),
    /// unless it is unknown, deleted or expired. An ended session is returned: the caller
    /// answers its picker URI with "gone".
    public func pickerSession(_ id: String, token: String) -> PickerSession? {
        guard let session = session(id), SecretToken.matches(token, session.pickerToken) else { return nil }
        return session
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
        guard var session = pickerSession(id, token: token), session.state == .picking else {
            throw PickerSessionError.notPicking
        }
        try change(&session)
        sessions[id] = session
        for continuation in watchers[id, default: [:]].values { continuation.yield(session) }
        return session
    }

    /// Forgets the session: every URL of it answers as an unknown one from now on.
    /// - Returns: Whether there was such a session.
    @discardableResult
    public func delete(_ id: String) -> Bool {
        guard session(id) != nil else { return false }
        end(id)
        return true
    }

    /// The session's states from now on (its selection and state changes), until it is
    /// deleted or expires; empty when there is no such session.
    public func updates(of id: String) -> AsyncStream<PickerSession> {
        let (stream, continuation) = AsyncStream<PickerSession>.makeStream(bufferingPolicy: .bufferingNewest(1))
        guard session(id) != nil else {
            continuation.finish()
            return stream
        }
        let key = UUID()
        watchers[id, default: [:]][key] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.stopWatching(id, key: key) }
        }
        return stream
    }

    /// How many sessions are alive.
    public var count: Int {
        sweepExpired()
        return sessions.count
    }

    private func stopWatching(_ id: String, key: UUID) {
        watchers[id]?[key] = nil
    }

    private func end(_ id: String) {
        sessions[id] = nil
        for continuation in (watchers.removeValue(forKey: id) ?? [:]).values { continuation.finish() }
    }

    private func sweepExpired() {
        let time = now()
        for (id, session) in sessions where session.expireTime <= time { end(id) }
    }
}
