import AssetsKit
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How long a piece of work took, in milliseconds: on the wall clock, and in CPU time (user
/// plus system, over all the threads or processes that did it).
///
/// On a machine nobody else uses, one-thread work has `cpu` ≈ `wall`; when other programs take
/// turns on the same core, `wall` grows and `cpu` stays close to the work's own cost.
struct Timing: Encodable {
    var wall: Double
    var cpu: Double

    /// The time per item, for a run over `count` items.
    func perItem(_ count: Int) -> Timing {
        Timing(wall: wall / Double(count), cpu: cpu / Double(count))
    }

    /// How many cores were busy on average: CPU time over wall time.
    var coresBusy: Double { wall > 0 ? cpu / wall : 0 }
}

/// Measures work on the monotonic clock and in CPU time.
enum Stopwatch {
    /// The wall time of `body` and the CPU time this process (all its threads) spent meanwhile.
    static func time(_ body: () throws -> Void) rethrows -> Timing {
        let cpu = processCPUMilliseconds()
        let wall = try wallMilliseconds(body)
        return Timing(wall: wall, cpu: processCPUMilliseconds() - cpu)
    }

    /// The wall time of `body` and the CPU time this process (all its threads) spent meanwhile.
    static func time(async body: () async throws -> Void) async rethrows -> Timing {
        let cpu = processCPUMilliseconds(), clock = ContinuousClock()
        let start = clock.now
        try await body()
        return Timing(wall: (clock.now - start).milliseconds, cpu: processCPUMilliseconds() - cpu)
    }

    /// The wall time of `body` and the CPU time `body` returns (e.g. that of child processes).
    static func time(reportingCPU body: () throws -> Double) rethrows -> Timing {
        var cpu = 0.0
        let wall = try wallMilliseconds { cpu = try body() }
        return Timing(wall: wall, cpu: cpu)
    }

    /// The wall time of `body`.
    static func wallMilliseconds(_ body: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try body()
        return (clock.now - start).milliseconds
    }

    /// CPU time of the process so far (user plus system, all threads).
    private static func processCPUMilliseconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return milliseconds(usage.ru_utime) + milliseconds(usage.ru_stime)
    }

    static func milliseconds(_ time: timeval) -> Double {
        Double(time.tv_sec) * 1e3 + Double(time.tv_usec) / 1e3
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
