import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing
import TestSupport

/// `assets-picker serve` run as a child process on a port of its own choosing, announced by
/// its first `--json` line.
final class ServedProcess: Sendable {
    let process: Process
    /// The server's first line: `signInUrl`, `pickerUri`, …
    let announcement: [String: String]
    /// The port it listens on.
    let port: Int
    /// The client key it was given (in its environment).
    let clientKey = UUID().uuidString + UUID().uuidString
    private let exit = ExitStatus()

    /// Starts `serve` on `library` with `arguments` after the usual ones.
    /// - Parameter openFiles: An open-file limit (soft and hard) to start it under, through the shell's `ulimit -n`.
    init(library: URL, scratch: URL, arguments: [String] = [], openFiles: Int? = nil) async throws {
        let process = Process()
        let serve = [try CLI.executable.get().path, "serve", "--library", library.path, "--backend", "folder", "--port", "0",
                     "--json", "--log-level", "error"] + arguments
        if let openFiles {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -n \(openFiles) && exec \"$0\" \"$@\""] + serve
        } else {
            process.executableURL = URL(fileURLWithPath: serve[0])
            process.arguments = Array(serve.dropFirst())
        }
        process.environment = CLI.environment(["ASSETS_PICKER_CLIENT_KEY": clientKey], scratch: scratch)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let exit = self.exit
        process.terminationHandler = { exit.set($0.terminationStatus) }
        try process.run()
        self.process = process
        do {
            let line = try await Self.firstLine(of: output.fileHandleForReading)
            let signInText = try #require(line["signInUrl"] as? String)
            let signIn = try #require(URLComponents(string: signInText))
            port = try #require(signIn.port)
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

    /// The first line the server writes (its `--json` announcement), read on a thread of its own.
    private static func firstLine(of handle: FileHandle) async throws -> [String: Any] {
        let line: Data = await withCheckedContinuation { continuation in
            Thread {
                var line = Data()
                while !line.contains(0x0A) {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    line.append(chunk)
                }
                continuation.resume(returning: line.prefix { $0 != 0x0A })
            }.start()
        }
        let object = try JSONSerialization.jsonObject(with: line) as? [String: Any]
        return try #require(object, "the server announced itself")
    }
}

/// A child's exit status, set by its termination handler.
final class ExitStatus: Sendable {
    private let value = Mutex<Int32?>(nil)
    var status: Int32? { value.withLock { $0 } }
    func set(_ status: Int32) { value.withLock { $0 = status } }
}
