import Foundation

/// The clock a PostgreSQL session store measures expiry on.
public enum SessionClock: Sendable {
    /// The database's (`now()`): one clock for every server, whichever asks. The one to run on.
    case database
    /// The time `now` gives, sent with each statement in place of `now()`: for tests that move
    /// time on without waiting for it.
    case given(@Sendable () -> Date)

    /// The time to send with a statement; `nil` for the database's own.
    var time: Date? {
        switch self {
        case .database: nil
        case .given(let now): now()
        }
    }
}
