#if canImport(Glibc)
import Glibc
#endif

/// CPU seconds used by the calling thread: the cost of work done on it, which other tests
/// running beside it (and a busy machine) do not inflate, unlike wall time.
public enum ThreadCPUTime {
    public static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The CPU seconds `body` used on this thread; it must not suspend (a synchronous body
    /// runs on one thread from start to end).
    public static func measure<Value, Failure: Error>(_ body: () throws(Failure) -> Value) throws(Failure) -> (value: Value, seconds: Double) {
        let start = now()
        let value = try body()
        return (value, now() - start)
    }
}
