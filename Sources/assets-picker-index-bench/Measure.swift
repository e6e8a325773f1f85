import AssetsKit
import Foundation

/// Wall-clock timing of benchmark steps.
enum Measure {
    /// How long `work` takes, in milliseconds.
    static func milliseconds(_ work: () async throws -> Void) async rethrows -> Double {
        let clock = ContinuousClock()
        return try await clock.measure { try await work() }.milliseconds
    }

    /// The median of `runs` timings of `work`, in milliseconds.
    static func median(runs: Int, _ work: () async throws -> Void) async rethrows -> Double {
        var times: [Double] = []
        for _ in 0..<runs { times.append(try await milliseconds(work)) }
        return times.sorted()[times.count / 2]
    }

    /// The peak resident set size of this process so far (`VmHWM`), in MiB.
    static func peakResidentMiB() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") else { return .nan }
        return kilobytes / 1024
    }
}
