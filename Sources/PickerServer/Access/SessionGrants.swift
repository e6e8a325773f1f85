import AssetsKit
import Foundation
import PickerSessions
import Synchronization

/// This process's memory of live picker sessions that the router has lately let a request into,
/// for ``RenditionFastPath``, which answers on the event loop and so cannot wait for a session
/// store (a database, shared by several servers).
///
/// Filled by the async path (``PickerPageRoutes/access(_:allowEnded:)``, which asked the store),
/// forgotten when this server ends or deletes a session, when a watched session's update says it
/// ended (``PickerEvents``, fed by the store's notifications from every server), and otherwise
/// trusted for ``timeToLive`` only: a session ended through another server is answered here
/// for at most that long, and only with thumbnails its page may already show. A session it does
/// not know is left to the router.
final class SessionGrants: Sendable {
    /// How long a grant is trusted after the store last confirmed it.
    static let timeToLive: TimeInterval = 1
    /// The most grants kept; beyond it, stale ones are dropped first and new ones are not kept.
    static let capacity = 4_096

    private struct Grant {
        let token: String
        let filter: MediaFilter
        let expireTime: Date
        let confirmed: Date
    }

    private let grants = Mutex<[String: Grant]>([:])
    private let now: @Sendable () -> Date

    /// A memory of grants; `now` is the clock their time to live and expiry are measured on.
    init(now: @escaping @Sendable () -> Date = Date.init) {
        self.now = now
    }

    /// Notes that the store answered `session` just now: kept while it is picking, else forgotten.
    func remember(_ session: PickerSession) {
        guard session.state == .picking else { return forget(session.id) }
        let grant = Grant(token: session.pickerToken, filter: session.settings.mediaFilter, expireTime: session.expireTime, confirmed: now())
        grants.withLock { grants in
            if grants.count >= Self.capacity {
                let time = now()
                grants = grants.filter { isFresh($0.value, at: time) }
                guard grants.count < Self.capacity else { return }
            }
            grants[session.id] = grant
        }
    }

    /// Forgets the session's grant: it ended, or was deleted.
    func forget(_ id: String) {
        _ = grants.withLock { $0.removeValue(forKey: id) }
    }

    /// The media filter of the session `id`, when a fresh grant of it carries `token` (compared
    /// in constant time); `nil` to let the router ask the store.
    func filter(_ id: String, token: String) -> MediaFilter? {
        let time = now()
        return grants.withLock { grants in
            guard let grant = grants[id], isFresh(grant, at: time), SecretToken.matches(token, grant.token) else { return nil }
            return grant.filter
        }
    }

    private func isFresh(_ grant: Grant, at time: Date) -> Bool {
        grant.expireTime > time && time.timeIntervalSince(grant.confirmed) < Self.timeToLive
    }
}
