import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One launched command: its process group, its pipes, and the thread that supervises it.
///
/// State shared with callers (`stop`) is guarded by `lock`. The process is reaped only with
/// `lock` held, and signals go to its group only while it is not reaped, so a signal can never
/// reach a recycled process id. The descriptors the reader thread owns are set before the
/// thread starts and touched by nobody else.
final class RunningTool: @unchecked Sendable {
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
            if exitWatch == .pidfdIfAvailable, let open = GlibcExtras.pidfdOpen {
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
                result = .failure(ToolError.timedOut(tool: tool.name, seconds: timeout / .seconds(1)))
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
        return Int32(max(0, min(((instant - now) / .milliseconds(1)).rounded(.up), 3_600_000)))
    }
}
