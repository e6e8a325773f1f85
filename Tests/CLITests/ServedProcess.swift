import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing
import TestSupport

/// `assets-picker serve` run as a child process on a port of its own choosing, announced by
/// its first `--json` line; what it prints later (new sign-in links) is read too, so its pipe never fills.
final class ServedProcess: Sendable {
    let process: Process
    /// The server's first line: `signInUrl`, `pickerUri`, …
    let announcement: [String: String]
    /// The port it listens on.
    let port: Int
    /// The client key it was given (in its environment).
    let clientKey: String
    private let exit = ExitStatus()
    private let lines: PrintedLines

    /// Starts `serve` on `library` with `arguments` after the usual ones.
    /// - Parameters:
    ///   - openFiles: An open-file limit (soft and hard) to start it under, through the shell's `ulimit -n`.
    ///   - backend: The backend it opens the library with.
    ///   - clientKey: The client key (default: a new one), so several servers can share one.
    ///   - environment: More of its environment (an XDG folder of its own, as on another machine).
    init(library: URL, scratch: URL, arguments: [String] = [], openFiles: Int? = nil, backend: String = "folder",
         clientKey: String = UUID().uuidString + UUID().uuidString, environment: [String: String] = [:]) async throws {
        let process = Process()
        let serve = [try CLI.executable.get().path, "serve", "--library", library.path, "--backend", backend, "--port", "0",
                     "--json", "--log-level", "error"] + arguments
        if let openFiles {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -n \(openFiles) && exec \"$0\" \"$@\""] + serve
        } else {
            process.executableURL = URL(fileURLWithPath: serve[0])
            process.arguments = Array(serve.dropFirst())
        }
        self.clientKey = clientKey
        process.environment = CLI.environment(["ASSETS_PICKER_CLIENT_KEY": clientKey].merging(environment) { $1 }, scratch: scratch)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let exit = self.exit
        process.terminationHandler = { exit.set($0.terminationStatus) }
        try process.run()
        self.process = process
        let lines = PrintedLines(reading: output.fileHandleForReading)
        self.lines = lines
        do {
            try await HangGuard.waitUntil("serve's announcement", limit: .seconds(120)) { !lines.all.isEmpty || exit.status != nil }
            let line = try #require(lines.all.first, "the server announced itself")
            port = try #require(line["port"] as? Int)
            announcement = line.mapValues { "\($0)" }
        } catch {
            Glibc.kill(process.processIdentifier, SIGKILL)
            throw error
        }
    }

    /// The exit status, once the process has ended.
    var exitStatus: Int32? { exit.status }

    /// Waits for the process to end (a hang guard of a minute).
    func waitForExit() async throws {
        try await HangGuard.waitUntil("serve's exit", limit: .seconds(60)) { self.exit.status != nil }
    }

    /// Ends the process if it still runs.
    func kill() {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
    }
}

/// The JSON lines a child prints, read on a thread of their own as they come.
final class PrintedLines: Sendable {
    private let lines = Mutex<[[String: any Sendable]]>([])

    init(reading handle: FileHandle) {
        Thread { [self] in
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let end = pending.firstIndex(of: 0x0A) {
                    let line = pending[pending.startIndex..<end]
                    pending = Data(pending[pending.index(after: end)...])
                    if let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] {
                        let sendable = object.compactMapValues { value -> (any Sendable)? in
                            switch value {
                            case let text as String: text
                            case let number as NSNumber: number.intValue
                            default: "\(value)"
                            }
                        }
                        self.lines.withLock { $0.append(sendable) }
                    }
                }
            }
        }.start()
    }

    /// Every line read so far, as objects.
    var all: [[String: any Sendable]] { lines.withLock { $0 } }
}

/// A child's exit status, set by its termination handler.
final class ExitStatus: Sendable {
    private let value = Mutex<Int32?>(nil)
    var status: Int32? { value.withLock { $0 } }
    func set(_ status: Int32) { value.withLock { $0 = status } }
}
