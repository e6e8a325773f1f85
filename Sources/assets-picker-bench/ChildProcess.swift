import Foundation
import ProcessRunning
#if canImport(Glibc)
import Glibc
#endif

/// A program started with ``ProcessSpawn`` (looked up on `PATH`) and waited for with `wait4`,
/// its output going to a file.
///
/// The peers are timed with this rather than `ToolRunner`: `wait4` gives the child's own CPU
/// time and peak memory, and nothing of ours runs between its start and its exit.
struct ChildProcess {
    let pid: pid_t
    let arguments: [String]
    /// Where standard error went (and standard output, unless it had its own file).
    let log: URL

    /// What the kernel counted for a program that ended.
    struct Usage {
        /// User plus system CPU time of the program and the children it waited for.
        var cpuMilliseconds: Double
        /// The largest resident set the program had, in bytes (sampled: see ``waitForUsage()``).
        var peakResidentBytes: Int
    }

    /// Starts `arguments[0]` (looked up on `PATH`) with `environment` added to ours, as
    /// ``ProcessSpawn`` starts every child (standard input from `/dev/null`, no signal blocked),
    /// standard error into `log`, and standard output into `output` (default: `log` too).
    static func start(_ arguments: [String], environment: [String: String] = [:], log: URL, output: URL? = nil) throws -> ChildProcess {
        let pid: pid_t
        do {
            pid = try ProcessSpawn.spawn(arguments[0], arguments: Array(arguments.dropFirst()), environment: environment,
                                         fileActions: [.write(descriptor: 2, path: log.path),
                                                       output.map { .write(descriptor: 1, path: $0.path) } ?? .duplicate(2, to: 1)],
                                         searchingPath: true)
        } catch {
            throw ChildProcessError.startFailed(command: arguments[0], errno: error.code)
        }
        return ChildProcess(pid: pid, arguments: arguments, log: log)
    }

    /// Waits for the program to end and returns the CPU milliseconds (user plus system) it
    /// and the children it waited for used; throws unless it exited with status 0.
    @discardableResult
    func wait() throws -> Double {
        try waitForUsage().cpuMilliseconds
    }

    /// Waits for the program to end and returns what it used; throws unless it exited with
    /// status 0.
    ///
    /// CPU time comes from `wait4`'s `rusage`. Peak memory does not: `posix_spawn` starts the
    /// child in the parent's address space until `exec`, and Linux then carries that address
    /// space's high-water mark into the child's `ru_maxrss`, so it would report this benchmark's
    /// own memory. With `samplingMemory` the child's `VmHWM` (its own address space, after
    /// `exec`) is read from /proc every 10 ms while it runs; it only grows, so the last reading
    /// holds the peak. Without it the wait blocks (no polling delay in timings) and the peak is 0.
    func waitForUsage(samplingMemory: Bool = false) throws -> Usage {
        var status: Int32 = 0
        var usage = rusage()
        var peak = 0
        while true {
            let reaped = wait4(pid, &status, samplingMemory ? WNOHANG : 0, &usage)
            if reaped == pid { break }
            if reaped < 0 {
                guard errno == EINTR else { throw ChildProcessError.startFailed(command: arguments[0], errno: errno) }
                continue
            }
            peak = max(peak, Self.highWaterMark(of: pid))
            usleep(10_000)
        }
        let exited = status & 0x7F == 0, code = (status >> 8) & 0xFF
        guard exited, code == 0 else {
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw ChildProcessError.failed(command: arguments[0], status: exited ? code : -(status & 0x7F), output: String(output.suffix(2000)))
        }
        return Usage(cpuMilliseconds: Stopwatch.milliseconds(usage.ru_utime) + Stopwatch.milliseconds(usage.ru_stime),
                     peakResidentBytes: peak)
    }

    /// `VmHWM` of a running process, in bytes (0 when it cannot be read).
    private static func highWaterMark(of pid: pid_t) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { return 0 }
        return kilobytes * 1024
    }

    /// Runs `arguments` to the end and returns what they printed.
    static func output(of arguments: [String], log: URL) throws -> String {
        try start(arguments, log: log).wait()
        return try String(contentsOf: log, encoding: .utf8)
    }
}

/// A program that could not start or did not succeed.
enum ChildProcessError: Error, CustomStringConvertible {
    case startFailed(command: String, errno: Int32)
    /// `status` is the exit status, or minus the signal that ended the program.
    case failed(command: String, status: Int32, output: String)

    var description: String {
        switch self {
        case let .startFailed(command, code): "\(command) could not start: \(String(cString: strerror(code)))"
        case let .failed(command, status, output): "\(command) failed (status \(status)): \(output)"
        }
    }
}
