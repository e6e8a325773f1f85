import Foundation

/// Runs an external command and collects its output, without blocking Swift's cooperative
/// thread pool.
///
/// The command is started directly (never through a shell, so arguments need no quoting).
/// Standard output and standard error are drained on their own threads while the command runs,
/// so a command that fills one pipe cannot deadlock against a reader waiting on the other.
/// A command that outlives its timeout, or whose task is cancelled, is sent `SIGTERM`, then
/// `SIGKILL` if it is still alive after ``killGracePeriod``.
public enum ToolRunner {
    /// How long a command may run when the caller does not say.
    public static let defaultTimeout: Duration = .seconds(20)
    /// How long a stopped command gets between `SIGTERM` and `SIGKILL`.
    public static let killGracePeriod: Duration = .seconds(1)
    /// How long after the process exits its output may still be draining (a loaded machine
    /// delays the reads); past it, a grandchild holding the pipes no longer holds the answer.
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
        guard let executable = tool.locate() else {
            throw ToolError.notFound(tool: tool.name, installHint: tool.installHint)
        }
        try Task.checkCancellation()
        let run = RunningTool(tool: tool, executable: executable, arguments: arguments, timeout: timeout)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                run.start(continuation)
            }
        } onCancel: {
            run.stop(because: .cancelled)
        }
    }
}

/// One launched command: the process, its pipes, and the reason it was stopped, if any.
///
/// All mutable state is guarded by `lock`. A run completes when the process has exited and
/// both pipes have reached their end; output is read by dispatch I/O as it arrives, so no
/// thread blocks on a pipe. A grandchild that keeps a pipe open after the process exits (or is
/// killed) cannot hold the answer back for more than ``ToolRunner/drainGracePeriod``.
private final class RunningTool: @unchecked Sendable {
    enum StopReason { case timedOut, cancelled }

    private let tool: ExternalTool
    private let process = Process()
    private let timeout: Duration
    private let outputPipe: Pipe
    private let errorPipe: Pipe
    private let lock = NSLock()
    private var continuation: CheckedContinuation<ToolOutput, any Error>?
    private var stopReason: StopReason?
    private var hasLaunched = false
    private var channels: [DispatchIO] = []
    private var openPipes = 2
    private var hasExited = false
    private var deadline: DispatchWorkItem?
    private var standardOutput = Data()
    private var standardError = Data()

    init(tool: ExternalTool, executable: URL, arguments: [String], timeout: Duration) {
        self.tool = tool
        self.timeout = timeout
        process.executableURL = executable
        process.arguments = arguments
        (outputPipe, errorPipe) = Spawning.makePipes()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = outputPipe
        process.standardError = errorPipe
    }

    func start(_ continuation: CheckedContinuation<ToolOutput, any Error>) {
        lock.lock()
        defer { lock.unlock() }
        guard stopReason == nil else {
            continuation.resume(throwing: CancellationError())
            return
        }
        self.continuation = continuation
        read(outputPipe.fileHandleForReading, into: \.standardOutput, limit: nil)
        read(errorPipe.fileHandleForReading, into: \.standardError, limit: ToolRunner.standardErrorLimit)
        process.terminationHandler = { [self] _ in processExited() }
        do {
            try Spawning.launch(process)
        } catch {
            finish(.failure(ToolError.launchFailed(tool: tool.name, reason: error.localizedDescription)))
            return
        }
        hasLaunched = true
        let deadline = DispatchWorkItem { [self] in stop(because: .timedOut) }
        self.deadline = deadline
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout.timeInterval, execute: deadline)
    }

    /// Stops the command (if it is running) and remembers why, so the caller is told.
    func stop(because reason: StopReason) {
        lock.lock()
        defer { lock.unlock() }
        guard stopReason == nil, continuation != nil || !hasLaunched else { return }
        stopReason = reason
        guard hasLaunched, !hasExited else { return }
        process.terminate()
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + ToolRunner.killGracePeriod.timeInterval) { [self] in
            lock.lock()
            defer { lock.unlock() }
            guard !hasExited else { return }
            kill(pid, SIGKILL)
            // Foundation may not report the exit while a grandchild holds the process's
            // descriptors; the caller's answer (timed out, cancelled) does not need it.
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { [self] in
                lock.withLock { finish(outcome()) }
            }
        }
    }

    /// Appends what arrives on `handle` to `buffer`, keeping at most the last `limit` bytes.
    ///
    /// A dispatch I/O channel on a duplicate of the descriptor reads without blocking a thread
    /// and reports the end of the stream reliably; the pipe keeps (and closes) the original.
    private func read(_ handle: FileHandle, into buffer: ReferenceWritableKeyPath<RunningTool, Data> & Sendable,
                      limit: Int?) {
        let descriptor = fcntl(handle.fileDescriptor, F_DUPFD_CLOEXEC, 0)
        let channel = DispatchIO(type: .stream, fileDescriptor: descriptor, queue: .global()) { _ in
            close(descriptor)
        }
        channel.setLimit(lowWater: 1)
        channels.append(channel)
        channel.read(offset: 0, length: Int.max, queue: .global()) { [self] done, chunk, _ in
            lock.lock()
            defer { lock.unlock() }
            guard continuation != nil else { return }
            if let chunk, !chunk.isEmpty {
                self[keyPath: buffer].append(contentsOf: chunk)
                if let limit, self[keyPath: buffer].count > limit {
                    self[keyPath: buffer] = Data(self[keyPath: buffer].suffix(limit))
                }
            }
            if done {
                openPipes -= 1
                completeIfDone()
            }
        }
    }

    private func processExited() {
        lock.lock()
        defer { lock.unlock() }
        hasExited = true
        deadline?.cancel()
        completeIfDone()
        // Normally both pipes end with the process. A grandchild holding them open must not
        // hold the caller forever; a busy machine must not cut the output short either.
        DispatchQueue.global().asyncAfter(deadline: .now() + ToolRunner.drainGracePeriod.timeInterval) { [self] in
            lock.lock()
            defer { lock.unlock() }
            if continuation != nil { finish(outcome()) }
        }
    }

    /// Answers once the process has exited and both pipes are drained. Call with `lock` held.
    private func completeIfDone() {
        if hasExited, openPipes == 0 { finish(outcome()) }
    }

    /// Resumes the caller exactly once and lets go of the pipes. Call with `lock` held.
    private func finish(_ result: Result<ToolOutput, any Error>) {
        guard let continuation else { return }
        self.continuation = nil
        for channel in channels { channel.close(flags: .stop) }
        continuation.resume(with: result)
    }

    /// The answer for a process that has exited. Call with `lock` held.
    private func outcome() -> Result<ToolOutput, any Error> {
        switch stopReason {
        case .timedOut:
            .failure(ToolError.timedOut(tool: tool.name, seconds: timeout.timeInterval))
        case .cancelled:
            .failure(CancellationError())
        case nil:
            .success(ToolOutput(
                terminationStatus: process.terminationStatus,
                wasSignalled: process.terminationReason == .uncaughtSignal,
                standardOutput: standardOutput,
                standardError: String(decoding: standardError, as: UTF8.self)))
        }
    }
}

/// Process creation made safe for many tools running at once.
///
/// Foundation's `Process` (on Linux) neither closes the parent's other descriptors in the child
/// nor resets the signal mask, which leads to two faults this type removes:
/// - A pipe made for one tool leaks into any tool started at the same time, so the first tool's
///   output does not end until the other tool exits. Pipes are therefore made close-on-exec,
///   and made and launched under one lock so no child is spawned between the two steps.
/// - A child starts with the signal mask of the spawning thread, and Swift's concurrency and
///   Dispatch threads block most signals, so the tool would ignore a polite `SIGTERM`.
private enum Spawning {
    private static let lock = NSLock()

    /// A pipe for standard output and one for standard error, neither inherited by other children.
    static func makePipes() -> (Pipe, Pipe) {
        lock.withLock {
            let pipes = (Pipe(), Pipe())
            for pipe in [pipes.0, pipes.1] {
                for descriptor in [pipe.fileHandleForReading.fileDescriptor, pipe.fileHandleForWriting.fileDescriptor] {
                    _ = fcntl(descriptor, F_SETFD, fcntl(descriptor, F_GETFD) | FD_CLOEXEC)
                }
            }
            return pipes
        }
    }

    /// Starts `process` with no signal blocked.
    static func launch(_ process: Process) throws {
        try lock.withLock {
            var none = sigset_t(), previous = sigset_t()
            sigemptyset(&none)
            pthread_sigmask(SIG_SETMASK, &none, &previous)
            defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
            try process.run()
        }
    }
}

private extension Duration {
    /// The duration in seconds, as dispatch deadlines take it.
    var timeInterval: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
