import Foundation
import Testing
import TestSupport

/// On a real terminal (a pseudo-terminal made by util-linux's `script`), progress bars are drawn
/// on stderr only, start at 0/N, and never get into what `--json` prints on stdout.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "util-linux script makes the terminal"))
struct ProgressOnATerminalTests {
    /// Runs `assets-picker arguments` with stderr on a terminal and stdout into a file; returns
    /// what the terminal showed and what stdout held.
    static func runOnATerminal(_ arguments: [String], scratch: URL,
                               environment: [String: String] = [:]) async throws -> (status: Int32, terminal: String, stdout: Data) {
        func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let stdoutFile = scratch.appendingPathComponent("stdout.json")
        let command = ([try CLI.executable.get().path] + arguments).map(quoted).joined(separator: " ") + " > " + quoted(stdoutFile.path)
        let terminalFile = scratch.appendingPathComponent("terminal.txt")
        _ = FileManager.default.createFile(atPath: terminalFile.path, contents: nil)
        let terminal = try FileHandle(forWritingTo: terminalFile)
        defer { try? terminal.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", command, "/dev/null"]
        process.environment = CLI.environment(environment.merging(["TERM": "xterm"]) { $1 }, scratch: scratch)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = terminal
        process.standardError = FileHandle.nullDevice
        let exit = ExitStatus()
        process.terminationHandler = { exit.set($0.terminationStatus) }
        try process.run()
        try await HangGuard.waitUntil("the command on a terminal", limit: .seconds(300)) { exit.status != nil }
        return (exit.status ?? -1, String(decoding: try Data(contentsOf: terminalFile), as: UTF8.self), try Data(contentsOf: stdoutFile))
    }

    @Test("export --json on a terminal: the bar on stderr from 0/N to N/N, stdout exactly one JSON document")
    func exportBar() async throws {
        let scratch = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let library = scratch.appendingPathComponent("library", isDirectory: true)
        try FileManager.default.copyItem(at: Corpus.root.appendingPathComponent("B_orientation"), to: library)
        let count = try FileManager.default.contentsOfDirectory(atPath: library.path).filter { !$0.hasPrefix(".") }.count

        let run = try await Self.runOnATerminal(["export", "--json", "--library", library.path, "--backend", "folder",
                                                 "--album", "camera-roll", "--original", "--out", scratch.appendingPathComponent("out").path],
                                                scratch: scratch)
        #expect(run.status == 0, "\(run.terminal)")
        let document = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "stdout is one JSON document")
        #expect((document["exported"] as? [Any])?.count == count)
        let bars = run.terminal.components(separatedBy: "\r").filter { $0.hasPrefix("Exporting ") }
        #expect(bars.first?.hasSuffix(" 0/\(count)") == true, "the bar starts at 0/N: \(bars.prefix(2))")
        #expect(bars.last?.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix(" \(count)/\(count)") == true, "and ends full: \(bars.suffix(2))")
        #expect(!run.terminal.contains("\"exported\""), "no JSON on the terminal's stderr")
    }

    @Test("index --json on a terminal: the bars on stderr, stdout exactly one JSON document")
    func indexBar() async throws {
        let scratch = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let library = scratch.appendingPathComponent("library", isDirectory: true)
        try FileManager.default.copyItem(at: Corpus.root.appendingPathComponent("B_orientation"), to: library)

        let run = try await Self.runOnATerminal(["index", "--json", "--library", library.path], scratch: scratch)
        #expect(run.status == 0, "\(run.terminal)")
        #expect(try JSONSerialization.jsonObject(with: run.stdout) is [String: Any], "stdout is one JSON document")
        #expect(!String(decoding: run.stdout, as: UTF8.self).contains("\r"), "no bar on stdout")
        #expect(run.terminal.contains("Indexing "), "the bar was drawn on the terminal: \(run.terminal.prefix(300))")
    }
}
