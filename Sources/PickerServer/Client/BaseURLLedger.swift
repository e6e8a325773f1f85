import Foundation
import Synchronization

/// The latest expiry this server has written into a base URL of each session, so that a base
/// URL whose expiry was edited to a later time is refused.
///
/// A base URL differs from one listing to the next only in its expiry, so an expiry up to the
/// latest one given is one the client could have had by listing again; any later one it made
/// up. Entries go once their expiry has passed: no base URL of theirs works any more.
final class BaseURLLedger: Sendable {
    private let latest = Mutex<[String: Int64]>([:])

    /// Notes that a listing of `sessionID` gave base URLs expiring at `expiry`.
    func record(_ expiry: Int64, for sessionID: String, now: Date) {
        let seconds = now.timeIntervalSince1970
        latest.withLock { latest in
            latest = latest.filter { Double($0.value) > seconds }
            latest[sessionID] = max(latest[sessionID] ?? .min, expiry)
        }
    }

    /// Whether `url`'s expiry is one this server gave for its session, and has not passed at `now`.
    func honours(_ url: BaseURL, at now: Date) -> Bool {
        guard Double(url.expiry) > now.timeIntervalSince1970 else { return false }
        return latest.withLock { $0[url.sessionID].map { url.expiry <= $0 } ?? false }
    }
}
