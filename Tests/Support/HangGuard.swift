import Synchronization

/// Waits for things that must happen eventually, with a deadline that only catches a hang.
///
/// The deadline is no timing claim: it is far beyond the expected time (at least ten times it,
/// on a busy machine), and when it passes the failure says that it was the hang guard.
public enum HangGuard {
    /// The default deadline: minutes, for things that take well under ten seconds.
    public static let defaultLimit: Duration = .seconds(300)

    /// What a passed hang guard throws.
    public struct Expired: Error, CustomStringConvertible {
        public let what: String
        public let limit: Duration

        public init(what: String, limit: Duration) {
            self.what = what
            self.limit = limit
        }
        public var description: String {
            "hang guard: \(what) did not happen within \(limit), far beyond its expected time; the code under test is stuck"
        }
    }

    /// Returns once `condition` holds, checking it every few milliseconds; throws ``Expired``
    /// if it still does not hold after `limit`.
    public static func waitUntil(_ what: @autoclosure () -> String, limit: Duration = defaultLimit,
                                 _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + limit
        while try await !condition() {
            guard ContinuousClock.now < deadline else { throw Expired(what: what(), limit: limit) }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// What `work` answers, or ``Expired`` once `limit` has passed without an answer: the
    /// waiting ends then even if `work` does not (it is left to finish on its own), so a call
    /// that never returns fails the test instead of holding it.
    public static func answer<Value: Sendable>(_ what: @autoclosure () -> String, within limit: Duration,
                                               _ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let expired = Expired(what: what(), limit: limit)
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
            let once = ResumedOnce(continuation)
            let timer = Task {
                try await Task.sleep(for: limit)
                once.resume(with: .failure(expired))
            }
            Task {
                do { once.resume(with: .success(try await work())) } catch { once.resume(with: .failure(error)) }
                timer.cancel()
            }
        }
    }
}

/// A continuation resumed by the first of several callers; the others are ignored.
private final class ResumedOnce<Value: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<Value, any Error>?>

    init(_ continuation: CheckedContinuation<Value, any Error>) {
        self.continuation = Mutex(continuation)
    }

    func resume(with result: Result<Value, any Error>) {
        continuation.withLock { $0.take() }?.resume(with: result)
    }
}
