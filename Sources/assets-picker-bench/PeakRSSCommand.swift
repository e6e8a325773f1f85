import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `assets-picker-bench peak-rss --log FILE -- COMMAND...`: runs COMMAND (its output into
/// FILE) and prints its peak resident set
/// in KiB (`wait4`'s `ru_maxrss`), then exits with its status. The memory benchmark starts each
/// measured program through it.
///
/// `posix_spawn` starts a child in its parent's address space until `exec`, and Linux carries
/// that address space's high-water mark into the child's `ru_maxrss` (see
/// ``ChildProcess/waitForUsage(samplingMemory:)``). Started from this small process rather
/// than from the benchmark, which made 200-MP files, the program's `ru_maxrss` is its own
/// peak, at least this process's few megabytes.
struct PeakRSSCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "peak-rss", abstract: "Run a command and print its peak RSS in KiB (ru_maxrss).", shouldDisplay: false)

    @Option(help: "Where the command's standard output and error go.", transform: { URL(fileURLWithPath: $0) })
    var log: URL

    @Argument(parsing: .captureForPassthrough, help: "The command and its arguments.")
    var command: [String]

    func run() throws {
        let arguments = command.first == "--" ? Array(command.dropFirst()) : command
        guard !arguments.isEmpty else { throw ValidationError("no command given") }
        let child = try ChildProcess.start(arguments, log: log)
        var status: Int32 = 0
        var usage = rusage()
        while wait4(child.pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw ChildProcessError.startFailed(command: arguments[0], errno: errno) }
        }
        print(usage.ru_maxrss)
        let exited = status & 0x7F == 0, code = (status >> 8) & 0xFF
        if !exited || code != 0 { throw ExitCode(exited ? code : 128 + (status & 0x7F)) }
    }
}
