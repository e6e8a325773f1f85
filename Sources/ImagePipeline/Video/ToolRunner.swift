import Foundation
#if canImport(Glibc)
import Glibc
#endif

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

/// One launched command: its process group, its pipes, and the thread that supervises it.
///
/// State shared with callers (`stop`) is guarded by `lock`. The process is reaped only with
/// `lock` held, and signals go to its group only while it is not reaped, so a signal can never
/// reach a recycled process id. The descriptors the reader thread owns are set before the
/// thread starts and touched by nobody else.
private final class RunningTool: @unchecked Sendable {
    enum StopReason { case timedOut, cancelled }

    /// How often the exit is checked where no `pidfd` is available.
    static let exitPollInterval: Duration = .milliseconds(50)

    private let tool: ExternalTool
    private let executable: String
    private let arguments: [String]
    private let timeout: Duration
    private let exitWatch: ToolRunner.ExitWatch
    private let drainGracePeriod: Duration
    private let clock = ContinuousClock()

    private let lock = NSLock()
    // Guarded by `lock`.
    private var continuation: CheckedContinuation<ToolOutput, any Error>?
    private var stopReason: StopReason?
    private var stoppedAt: ContinuousClock.Instant?
    /// The process (and process group) id; 0 until launched.
    private var pid: pid_t = 0
    private var isReaped = false
    /// The wake-up pipe's write end; -1 once closed.
    private var wakeWriter: Int32 = -1

    // Owned by the reader thread once it starts.
    private var outputReader: Int32 = -1
    private var errorReader: Int32 = -1
    private var wakeReader: Int32 = -1
    private var pidfd: Int32 = -1
    private var startedAt = ContinuousClock().now

    init(tool: ExternalTool, executable: String, arguments: [String], timeout: Duration,
         exitWatch: ToolRunner.ExitWatch, drainGracePeriod: Duration) {
        self.tool = tool
        self.executable = executable
        self.arguments = arguments
        self.timeout = timeout
        self.exitWatch = exitWatch
        self.drainGracePeriod = drainGracePeriod
    }

    /// Launches the command and its reader thread, or answers at once when that fails or the
    /// task was cancelled first.
    func start(_ continuation: CheckedContinuation<ToolOutput, any Error>) {
        if let failure = lock.withLock({ launch(continuation) }) {
            continuation.resume(throwing: failure)
        }
    }

    /// Starts the command and hands `continuation` to its reader thread; returns the error to
    /// answer with instead when that fails. Call with `lock` held.
    private func launch(_ continuation: CheckedContinuation<ToolOutput, any Error>) -> (any Error)? {
        guard stopReason == nil else { return CancellationError() }
        do {
            let wake = try Spawner.makePipe()
            let launched: Spawner.Launched
            do {
                launched = try Spawner.launch(executable, arguments: arguments)
            } catch {
                close(wake.reader)
                close(wake.writer)
                throw error
            }
            _ = fcntl(wake.writer, F_SETFL, fcntl(wake.writer, F_GETFL) | O_NONBLOCK)
            pid = launched.pid
            startedAt = clock.now
            outputReader = launched.outputReader
            errorReader = launched.errorReader
            wakeReader = wake.reader
            wakeWriter = wake.writer
            if exitWatch == .pidfdIfAvailable, let open = Spawner.pidfdOpen {
                pidfd = open(pid, 0)   // -1 (old kernel): the polling fallback
            }
        } catch {
            return ToolError.launchFailed(tool: tool.name, reason: "\(error)")
        }
        self.continuation = continuation
        let threadStatus = Spawner.startThread { [self] in supervise() }
        guard threadStatus != 0 else { return nil }
        // No thread to supervise the command: stop it here and now.
        self.continuation = nil
        signalGroup(SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        isReaped = true
        for descriptor in [outputReader, errorReader, wakeReader, wakeWriter, pidfd] where descriptor >= 0 {
            close(descriptor)
        }
        wakeWriter = -1
        return ToolError.launchFailed(tool: tool.name,
                                      reason: "no thread to read its output: \(Spawner.describe(threadStatus))")
    }

    /// Stops the command (if it is running) and remembers why, so the caller is told.
    ///
    /// The process group gets `SIGTERM` now; the reader thread sends `SIGKILL` after
    /// ``ToolRunner/killGracePeriod`` if the command has not exited by then.
    func stop(because reason: StopReason) {
        lock.lock()
        defer { lock.unlock() }
        guard stopReason == nil, continuation != nil || pid == 0 else { return }
        stopReason = reason
        stoppedAt = clock.now
        signalGroup(SIGTERM)
        if wakeWriter >= 0 {
            var byte: UInt8 = 1
            _ = write(wakeWriter, &byte, 1)
        }
    }

    /// Sends `signal` to the command's process group, unless it has not started or has been
    /// reaped (its id may belong to someone else by then). Call with `lock` held.
    private func signalGroup(_ signal: Int32) {
        guard pid > 0, !isReaped else { return }
        if kill(-pid, signal) != 0 { kill(pid, signal) }
    }

    /// The reader thread: reads both pipes to their end, enforces the timeout and the grace
    /// periods, then reaps the process and answers the caller.
    private func supervise() {
        var standardOutput = Data()
        var standardError: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let deadline = startedAt + timeout
        var exitedAt: ContinuousClock.Instant?
        var isKilled = false

        while true {
            let now = clock.now
            let (reason, stoppedAt) = lock.withLock { (stopReason, self.stoppedAt) }
            // The timeout is for the command; once it has exited, only the drain grace counts.
            if reason == nil, exitedAt == nil, now >= deadline {
                stop(because: .timedOut)
                continue
            }
            if let stoppedAt, !isKilled, now >= stoppedAt + ToolRunner.killGracePeriod {
                lock.withLock { signalGroup(SIGKILL) }
                isKilled = true
            }
            if exitedAt == nil, hasExited() {
                exitedAt = now
                // What the command left behind in its group goes with it.
                lock.withLock { signalGroup(SIGKILL) }
            }
            if let exitedAt {
                let drained = outputReader < 0 && errorReader < 0
                if drained || reason != nil || now >= exitedAt + drainGracePeriod { break }
            }

            var wakeAt: ContinuousClock.Instant?
            if reason == nil, exitedAt == nil {
                wakeAt = deadline
            } else if let stoppedAt, !isKilled {
                wakeAt = stoppedAt + ToolRunner.killGracePeriod
            }
            if let exitedAt {
                wakeAt = min(wakeAt ?? now + .seconds(3600), exitedAt + drainGracePeriod)
            } else if pidfd < 0 {
                wakeAt = min(wakeAt ?? now + .seconds(3600), now + Self.exitPollInterval)
            }
            var descriptors = [outputReader, errorReader, wakeReader, exitedAt == nil ? pidfd : -1]
                .filter { $0 >= 0 }
                .map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let result = poll(&descriptors, nfds_t(descriptors.count), Self.milliseconds(from: now, to: wakeAt))
            if result < 0 {
                if errno != EINTR { usleep(10_000) }   // EINVAL/ENOMEM: should not happen; don't spin
                continue
            }
            for entry in descriptors where entry.revents != 0 {
                if entry.fd == outputReader {
                    _ = read(&outputReader, into: &buffer) { standardOutput.append(contentsOf: $0) }
                } else if entry.fd == errorReader {
                    _ = read(&errorReader, into: &buffer) { chunk in
                        standardError.append(contentsOf: chunk)
                        if standardError.count > 4 * ToolRunner.standardErrorLimit {
                            standardError.removeFirst(standardError.count - ToolRunner.standardErrorLimit)
                        }
                    }
                } else if entry.fd == wakeReader {
                    _ = buffer.withUnsafeMutableBytes { Glibc.read(wakeReader, $0.baseAddress, $0.count) }
                }
                // The pidfd is only a wake-up; `hasExited` checks at the top of the loop.
            }
        }

        for descriptor in [outputReader, errorReader] where descriptor >= 0 {
            close(descriptor)
        }
        let continuation: CheckedContinuation<ToolOutput, any Error>?
        let result: Result<ToolOutput, any Error>
        do {
            lock.lock()
            defer { lock.unlock() }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            isReaped = true
            close(wakeWriter)
            wakeWriter = -1
            continuation = self.continuation
            self.continuation = nil
            switch stopReason {
            case .timedOut:
                result = .failure(ToolError.timedOut(tool: tool.name, seconds: Self.seconds(timeout)))
            case .cancelled:
                result = .failure(CancellationError())
            case nil:
                let signal = status & 0x7F
                result = .success(ToolOutput(
                    terminationStatus: signal == 0 ? (status >> 8) & 0xFF : signal,
                    wasSignalled: signal != 0,
                    standardOutput: standardOutput,
                    standardError: String(decoding: standardError.suffix(ToolRunner.standardErrorLimit), as: UTF8.self)))
            }
        }
        close(wakeReader)
        if pidfd >= 0 { close(pidfd) }
        continuation?.resume(with: result)
    }

    /// Reads what is available on `descriptor` into `body`; at the end of the stream (or on an
    /// error) closes it and sets it to -1. Returns whether it is still open.
    private func read(_ descriptor: inout Int32, into buffer: inout [UInt8],
                      _ body: (UnsafeRawBufferPointer) -> Void) -> Bool {
        let fd = descriptor
        let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if count > 0 {
            buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            return true
        }
        if count < 0, errno == EINTR || errno == EAGAIN { return true }
        close(descriptor)
        descriptor = -1
        return false
    }

    /// Whether the command has exited (it stays a zombie, so its id is not reused until reaped).
    private func hasExited() -> Bool {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) < 0 {
            guard errno == EINTR else { return true }   // ECHILD: nothing left to wait for
        }
        return info.si_signo == SIGCHLD
    }

    /// `poll`'s timeout for waking at `instant` (rounded up; -1 = no timeout).
    private static func milliseconds(from now: ContinuousClock.Instant, to instant: ContinuousClock.Instant?) -> Int32 {
        guard let instant else { return -1 }
        let milliseconds = (seconds(instant - now) * 1000).rounded(.up)
        return Int32(max(0, min(milliseconds, 3_600_000)))
    }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// The system calls behind a launch, and the glibc extras found at run time (Swift's Glibc
/// module does not declare the `_GNU_SOURCE` ones).
private enum Spawner {
    struct Launched {
        var pid: pid_t
        var outputReader: Int32
        var errorReader: Int32
    }

    struct Failure: Error, CustomStringConvertible {
        var call: String
        var code: Int32
        var description: String { "\(call): \(Spawner.describe(code))" }
    }

    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
    typealias PidfdOpen = @convention(c) (pid_t, UInt32) -> Int32

    private static let pipe2: Pipe2? = symbol("pipe2")
    private static let addCloseFrom: AddCloseFrom? = symbol("posix_spawn_file_actions_addclosefrom_np")
    static let pidfdOpen: PidfdOpen? = symbol("pidfd_open")

    private static func symbol<Function>(_ name: String) -> Function? {
        guard let handle = dlopen(nil, RTLD_NOW), let address = dlsym(handle, name) else { return nil }
        return unsafeBitCast(address, to: Function.self)
    }

    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// A pipe whose ends are close-on-exec from the start and not among descriptors 0–2.
    static func makePipe() throws(Failure) -> (reader: Int32, writer: Int32) {
        var ends: [Int32] = [-1, -1]
        if let pipe2 {
            guard pipe2(&ends, O_CLOEXEC) == 0 else { throw Failure(call: "pipe2", code: errno) }
        } else {
            // Without pipe2 a fork elsewhere could catch the ends before FD_CLOEXEC is set;
            // the spawned child closes them anyway (close-from or close-on-exec below).
            guard pipe(&ends) == 0 else { throw Failure(call: "pipe", code: errno) }
            for end in ends { _ = fcntl(end, F_SETFD, fcntl(end, F_GETFD) | FD_CLOEXEC) }
        }
        // With 0, 1 or 2 closed in our process a pipe could land there and be clobbered by
        // the child's own redirections; move it up.
        for index in ends.indices where ends[index] < 3 {
            let moved = fcntl(ends[index], F_DUPFD_CLOEXEC, 3)
            let code = errno
            close(ends[index])
            ends[index] = moved
            guard moved >= 0 else {
                for end in ends where end >= 0 { close(end) }
                throw Failure(call: "fcntl", code: code)
            }
        }
        return (ends[0], ends[1])
    }

    /// Starts `executable` (an absolute path) in a process group of its own, with standard
    /// input from `/dev/null`, standard output and error into new pipes, no other descriptor,
    /// no signal blocked and every signal at its default action.
    static func launch(_ executable: String, arguments: [String]) throws(Failure) -> Launched {
        let output = try makePipe()
        let error: (reader: Int32, writer: Int32)
        do {
            error = try makePipe()
        } catch {
            close(output.reader)
            close(output.writer)
            throw error
        }
        defer {
            close(output.writer)
            close(error.writer)
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output.writer, 1)
        posix_spawn_file_actions_adddup2(&actions, error.writer, 2)
        if let addCloseFrom {
            _ = addCloseFrom(&actions, 3)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        sigdelset(&allSignals, SIGKILL)
        sigdelset(&allSignals, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard status == 0 else {
            close(output.reader)
            close(error.reader)
            throw Failure(call: "posix_spawn", code: status)
        }
        return Launched(pid: pid, outputReader: output.reader, errorReader: error.reader)
    }

    /// Runs `body` on a new detached thread with a small stack; returns `pthread_create`'s status.
    static func startThread(_ body: @escaping @Sendable () -> Void) -> Int32 {
        final class Box {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, 512 * 1024)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let status = pthread_create(&thread, &attributes, { context in
            Unmanaged<Box>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, context)
        if status != 0 {
            Unmanaged<Box>.fromOpaque(context).release()
        }
        return status
    }
}
