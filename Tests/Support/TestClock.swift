import Foundation
import Synchronization

/// A wall clock the test moves by hand, for expiry without waiting on real time.
public final class TestClock: Sendable {
    private let time = Mutex(Date(timeIntervalSince1970: 1_000_000))

    public init() {}

    /// The clock's current time.
    public var now: Date { time.withLock { $0 } }

    /// Moves the clock forward.
    public func advance(_ seconds: TimeInterval) { time.withLock { $0 += seconds } }
}
