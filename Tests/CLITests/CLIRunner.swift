import Foundation
import Synchronization
import TestSupport

/// What one run of the `assets-picker` binary gave back.
struct CLIResult: Sendable, CustomStringConvertible {
    let arguments: [String]
    let status: Int32
    let stdout: Data
    let stderr: Data
    let duration: Duration
    let timedOut: Bool

    var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    /// The non-empty lines of stderr.
    var stderrLines: [String] { stderrText.split(separator: "\n").map(String.init) }

    /// stdout parsed as one JSON object (the `--json` contract: exactly one document).
    func json() throws -> JSONObject {
        let value = try JSONSerialization.jsonObject(with: stdout)
        guard let object = value as? [String: Any] else { throw CLITestError.notAnObject(stdoutText) }
        return JSONObject(object)
    }

    var description: String {
        "assets-picker \(arguments.joined(separator: " ")) -> status \(status)"
            + "\(timedOut ? " (killed by the hang guard: a hang, not slowness)" : "") in \(duration)\n"
            + "stderr: \(stderrText)\nstdout: \(stdoutText.prefix(2000))"
    }
}

enum CLITestError: Error, CustomStringConvertible {
    case executableNotFound([String])
    case notAnObject(String)
    case missingKey(String, in: String)

    var description: String {
        switch self {
        case .executableNotFound(let tried): "assets-picker not found; run `swift build --build-tests` first (looked in \(tried))"
        case .notAnObject(let text): "stdout is not one JSON object: \(text.prefix(500))"
        case let .missingKey(key, object): "no usable \(key) in \(object.prefix(500))"
        }
    }
}

/// A JSON object with typed accessors that throw (so `try` in a test reports the missing key).
struct JSONObject: @unchecked Sendable {
    let raw: [String: Any]

    init(_ raw: [String: Any]) { self.raw = raw }

    var keys: Set<String> { Set(raw.keys) }

    func string(_ key: String) throws -> String {
        guard let value = raw[key] as? String else { throw CLITestError.missingKey(key, in: "\(raw)") }
        return value
    }

    func int(_ key: String) throws -> Int {
        guard let number = raw[key] as? NSNumber, Double(number.intValue) == number.doubleValue else {
            throw CLITestError.missingKey(key, in: "\(raw)")
        }
        return number.intValue
    }

    func double(_ key: String) throws -> Double {
        guard let number = raw[key] as? NSNumber else { throw CLITestError.missingKey(key, in: "\(raw)") }
        return number.doubleValue
    }

    func object(_ key: String) throws -> JSONObject {
        guard let value = raw[key] as? [String: Any] else { throw CLITestError.missingKey(key, in: "\(raw)") }
        return JSONObject(value)
    }

    func objects(_ key: String) throws -> [JSONObject] {
        guard let value = raw[key] as? [[String: Any]] else { throw CLITestError.missingKey(key, in: "\(raw)") }
        return value.map(JSONObject.init)
    }

    /// An ISO 8601 date as the CLI writes it (`...Z` or `...+02:00`).
    func date(_ key: String) throws -> Date {
        let text = try string(key)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        guard let date = formatter.date(from: text) else { throw CLITestError.missingKey("ISO 8601 \(key) (\(text))", in: "\(raw)") }
        return date
    }
}

/// Runs the built `assets-picker` as a child process.
enum CLI {
    /// How long a child may run before it is killed: a hang guard only, ten times and more
    /// what the slowest command takes on a busy machine. No test bounds a command's time.
    static let hangGuard: Duration = .seconds(600)

    /// The binary built beside this test bundle (`swift build --build-tests` builds it, since
    /// CLITests depends on the executable target); `$ASSETS_PICKER_CLI` overrides.
    static let executable: Result<URL, CLITestError> = {
        var candidates: [URL] = []
        if let path = ProcessInfo.processInfo.environment["ASSETS_PICKER_CLI"] {
            candidates.append(URL(fileURLWithPath: path))
        }
        let bundle = Bundle.main.bundleURL
        candidates.append(bundle.appendingPathComponent("assets-picker"))
        candidates.append(bundle.deletingLastPathComponent().appendingPathComponent("assets-picker"))
        if let argument0 = CommandLine.arguments.first {
            let runner = URL(fileURLWithPath: argument0).resolvingSymlinksInPath()
            candidates.append(runner.deletingLastPathComponent().appendingPathComponent("assets-picker"))
            // On macOS the runner sits in AssetsPickerPackageTests.xctest/Contents/MacOS.
            candidates.append(runner.deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("assets-picker"))
        }
        candidates.append(Corpus.packageRoot.appendingPathComponent(".build/debug/assets-picker"))
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) {
            return .success(found)
        }
        return .failure(.executableNotFound(candidates.map(\.path)))
    }()

    /// The data folder (`XDG_DATA_HOME`) of every child of this test run: a temporary folder,
    /// never the user's. Libraries' indexes live there, one per library folder, so an index one
    /// command makes is the one the next command on that library finds.
    static let dataHome = FileManager.default.temporaryDirectory.appendingPathComponent("cli-data-\(UUID().uuidString)", isDirectory: true)

    /// The environment every child gets: this process's, with the demo library pointed at a
    /// place that cannot be created, so a test that forgets `--library` fails fast instead of
    /// writing a demo library into the user's data folder, the XDG cache folder in the run's own
    /// scratch folder, so no run reads what another left in a cache, and the data folder ``dataHome``.
    static func environment(_ overrides: [String: String], scratch: URL) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["ASSETS_PICKER_DEMO_LIBRARY"] = "/dev/null/no-demo-library-in-tests"
        environment["XDG_CACHE_HOME"] = scratch.appendingPathComponent("cache", isDirectory: true).path
        environment["XDG_DATA_HOME"] = dataHome.path
        environment.merge(overrides) { _, new in new }
        return environment
    }

    /// Runs `assets-picker arguments...`, waits for it (killing it after `timeout`, a hang guard) and returns
    /// its status and everything it wrote. Output goes to temporary files, not pipes, so a child
    /// that writes a lot can never block on a full pipe, and no pipe end leaks into the children
    /// other tests start at the same time. With a `launcher` (e.g. `["/usr/bin/unshare", ...]`),
    /// the launcher runs and is given the binary and the arguments after its own.
    static func run(_ arguments: [String], environment overrides: [String: String] = [:],
                    timeout: Duration = hangGuard, launcher: [String] = []) async throws -> CLIResult {
        let executable = try executable.get()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("cli-run-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let stdoutURL = scratch.appendingPathComponent("stdout"), stderrURL = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        let stdoutHandle = try FileHandle(forWritingTo: stdoutURL)
        let stderrHandle = try FileHandle(forWritingTo: stderrURL)
        defer {
            try? stdoutHandle.close()
            try? stderrHandle.close()
        }

        let process = Process()
        if let tool = launcher.first {
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = launcher.dropFirst() + [executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        process.environment = environment(overrides, scratch: scratch)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdoutHandle
        process.standardError = stderrHandle

        // The watchdog kills the child once `timeout` has passed; the child's pid is cleared
        // when it ends, so a late watchdog never signals a reused pid.
        let child = ChildState()
        let watchdog = Task {
            try await Task.sleep(for: timeout)
            child.timedOut.withLock { $0 = true }
            child.pid.withLock { pid in
                if pid > 0 { kill(pid, SIGKILL) }
            }
        }
        defer { watchdog.cancel() }
        let clock = ContinuousClock()
        let start = clock.now
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { finished in
                child.pid.withLock { $0 = 0 }
                continuation.resume(returning: finished.terminationStatus)
            }
            child.pid.withLock { pid in
                do {
                    try process.run()
                    pid = process.processIdentifier
                } catch {
                    process.terminationHandler = nil
                    continuation.resume(throwing: error)
                }
            }
        }
        let duration = clock.now - start
        return CLIResult(arguments: arguments, status: status,
                         stdout: try Data(contentsOf: stdoutURL), stderr: try Data(contentsOf: stderrURL),
                         duration: duration, timedOut: child.timedOut.withLock { $0 })
    }
}

/// The state a run shares with its watchdog and termination handler.
private final class ChildState: Sendable {
    /// Whether the watchdog killed the child.
    let timedOut = Mutex(false)
    /// The running child's pid; 0 before it starts and once it has ended.
    let pid = Mutex<pid_t>(0)
}
