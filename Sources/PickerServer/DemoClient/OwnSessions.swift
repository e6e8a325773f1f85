import Foundation
import PickerSessions
import Synchronization

/// The person's own picker sessions: the one the server made at start
/// (``PickerServer/makeOwnSession()``, which `serve`'s first sign-in link opens) and those the
/// demo client page created (``DemoClientRoutes``). Only these may be read through the demo
/// client's mirror of the client API; a client program's sessions stay between it and the
/// person's picking.
///
/// A bounded set: at most ``capacity`` live ones at once, each kept until its session expires
/// (the same expiry) or is deleted, so the person's page cannot fill the server's session store
/// and lock client programs out. They are made in the store's reserved places
/// (`PickerSessionStore.Place.reserved`), of which client programs leave ``capacity`` free, so
/// clients cannot lock the person out either.
final class OwnSessions: Sendable {
    /// The most live own sessions at once.
    let capacity: Int
    /// Each own session's expiry.
    private let expiries = Mutex<[String: Date]>([:])

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Why an own session was not made.
    enum Refusal: Error {
        /// ``capacity`` own sessions are alive.
        case full(capacity: Int)
    }

    /// Makes a session with `make` and marks it as the person's own, unless ``capacity`` own
    /// sessions are alive (those expired at `now`, or that `isAlive` no longer finds, are
    /// forgotten first).
    /// - Throws: ``Refusal/full(capacity:)`` when the set is full (nothing is made), or what `make` threw.
    func make(now: Date, isAlive: (String) -> Bool, _ make: () throws -> PickerSession) throws -> PickerSession {
        try expiries.withLock { expiries in
            expiries = expiries.filter { $0.value > now && isAlive($0.key) }
            guard expiries.count < capacity else { throw Refusal.full(capacity: capacity) }
            let session = try make()
            expiries[session.id] = session.expireTime
            return session
        }
    }

    /// Whether `sessionID` is one of the person's own sessions and has not expired at `now`.
    func isOwn(_ sessionID: String, now: Date) -> Bool {
        expiries.withLock { $0[sessionID].map { $0 > now } ?? false }
    }
}
