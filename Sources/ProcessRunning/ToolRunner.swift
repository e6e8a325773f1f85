import Foundation

/// Runs an external command and collects its output, without blocking Swift's cooperative
/// thread pool.
///
/// The command is found on `PATH` (``ExternalTool/locate(searchPath:)``) and started directly
/// by its absolute path with `posix_spawn` — never through a shell, so arguments need no
/// quoting. In the child:
/// - standard input is `/dev/null`; standard output and standard error are pipes to us;
///   every other descriptor is closed (`posix_spawn_file_actions_addclosefrom_np` where glibc
///   has it, and all our pipes are close-on-exec in any case), so a pipe made for one command
///   never leaks into another started at the same time;
/// - no signal is blocked and every signal has its default action (`SIGPIPE` included), so
///   the command behaves as it would from a shell, whatever the spawning thread had blocked;
/// - the command leads a process group of its own, so stopping it stops whatever it started.
///
/// One dedicated thread per command (not the cooperative pool, not Dispatch) waits in `poll`
/// on both pipes, a `pidfd` for the process (or a short tick where there is none) and a wake-up
/// pipe. It keeps all of standard output and the last ``standardErrorLimit`` bytes of standard
/// error, enforces the timeout, and reaps the process with `waitpid`, so no zombie is left on
/// any path. A command that outlives its timeout, or whose task is cancelled, gets `SIGTERM`
/// for its whole process group, then `SIGKILL` after ``killGracePeriod``. When the command
/// exits, anything it left running in its group is killed, so a background grandchild that
/// still holds the pipes cannot keep the caller waiting; ``drainGracePeriod`` only bounds the
/// wait for one that escaped the group (`setsid`). The timeout runs until the command exits;
/// draining after that is bounded by the grace period alone.
///
/// ## Why not Foundation's `Process` or `DispatchIO`
///
/// The earlier runner used both and was fragile under load:
/// - Reading pipes with `DispatchIO` crashed (`SIGSEGV` in libdispatch's
///   `_dispatch_event_loop_drain`) during long runs of many concurrent commands; the same
///   fault led swift-subprocess to leave Dispatch I/O for its own `epoll` loop on Linux
///   (swiftlang/swift-subprocess#47).
/// - `Process` on Linux does not close the parent's other descriptors in the child, so a pipe
///   made for one command leaked into any command spawned concurrently and held its output
///   open; it also passes on the spawning thread's signal mask (concurrency and Dispatch
///   threads block most signals), so commands ignored `SIGTERM`. Working around both needed a
///   process-wide lock and signal-mask juggling around every launch.
/// - `Process` knows only the child, so a grandchild was neither stopped with it nor kept
///   from holding its output open.
public enum ToolRunner {
    /// How long a command may run when the caller does not say.
    public static let defaultTimeout: Duration = .seconds(20)
    /// How long a stopped command gets between `SIGTERM` and `SIGKILL`.
    public static let killGracePeriod: Duration = .seconds(1)
    /// How long after the command exits its output may still be draining. Whatever the command
    /// left in its process group is killed when it exits, so this only matters for a
    /// descendant that left the group and kept the pipes; past it the answer is given without
    /// the rest of that output.
    public static let drainGracePeriod: Duration = .seconds(10)
    /// How many bytes of standard error are kept (the last ones, where tools put the reason).
    public static let standardErrorLimit = 4096

    /// Runs `tool` with `arguments` and returns what it wrote once it exits.
    ///
    /// A non-zero exit is reported in the returned ``ToolOutput``, not thrown.
    ///
    /// - Throws: ``ToolError/notFound(tool:installHint:)`` when the tool is not on `PATH`,
    ///   ``ToolError/launchFailed(tool:reason:)``, ``ToolError/timedOut(tool:seconds:)``, or
    ///   `CancellationError` when the calling task is cancelled (the command is stopped).
    public static func run(_ tool: ExternalTool, arguments: [String],
                           timeout: Duration = defaultTimeout) async throws -> ToolOutput {
        try await run(tool, arguments: arguments, timeout: timeout, exitWatch: .pidfdIfAvailable)
    }

    /// How the reader thread learns that the command has exited while its pipes are still open.
    enum ExitWatch: Sendable {
        /// A `pidfd` in the `poll` set (Linux 5.3+), else ``polling``.
        case pidfdIfAvailable
        /// A check every ``RunningTool/exitPollInterval`` (the fallback; tests force it).
        case polling
    }

    /// ``run(_:arguments:timeout:)`` with the exit watch and the drain grace chosen (for tests).
    static func run(_ tool: ExternalTool, arguments: [String], timeout: Duration, exitWatch: ExitWatch,
                    drainGracePeriod: Duration = drainGracePeriod) async throws -> ToolOutput {
        guard let executable = tool.locate() else {
            throw ToolError.notFound(tool: tool.name, installHint: tool.installHint)
        }
        try Task.checkCancellation()
        let run = RunningTool(tool: tool, executable: executable.path, arguments: arguments,
                              timeout: timeout, exitWatch: exitWatch, drainGracePeriod: drainGracePeriod)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                run.start(continuation)
            }
        } onCancel: {
            run.stop(because: .cancelled)
        }
    }
}
