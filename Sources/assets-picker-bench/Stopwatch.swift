/// Measures wall time on the monotonic clock, in milliseconds.
struct Stopwatch {
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant

    /// Starts timing now.
    init() {
        start = clock.now
    }

    /// The milliseconds since ``init()``.
    var elapsedMilliseconds: Double {
        Self.milliseconds(clock.now - start)
    }

    /// How long `body` takes, in milliseconds.
    static func time(_ body: () throws -> Void) rethrows -> Double {
        let stopwatch = Stopwatch()
        try body()
        return stopwatch.elapsedMilliseconds
    }

    /// How long `body` takes, in milliseconds.
    static func time(_ body: () async throws -> Void) async rethrows -> Double {
        let stopwatch = Stopwatch()
        try await body()
        return stopwatch.elapsedMilliseconds
    }

    /// The median of `runs` timings of `body`, in milliseconds.
    static func median(of runs: Int, _ body: () async throws -> Void) async rethrows -> Double {
        var timings: [Double] = []
        for _ in 0..<max(1, runs) {
            timings.append(try await time(body))
        }
        return timings.median
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1e3 + Double(attoseconds) / 1e15
    }
}

extension Array where Element == Double {
    /// The middle value (the mean of the two middle values for an even count); 0 when empty.
    var median: Double {
        guard !isEmpty else { return 0 }
        let sorted = sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }
}
