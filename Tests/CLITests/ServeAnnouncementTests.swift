import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// What `serve` (and so `make run`) says once it listens, for someone who has never seen it:
/// what it serves, the one link to open, how programs reach it, and how to stop it.
@Suite struct ServeAnnouncementTests {
    @Test("serve's start-up lines: what it serves, the sign-in link on a line of its own, the API and key, Ctrl-C to stop")
    func startUpLines() async throws {
        let scratch = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let library = scratch.appendingPathComponent("photos", isDirectory: true)
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Corpus.file("A_camera_exif/goexif__sample1.jpg"), to: library.appendingPathComponent("sample.jpg"))

        let process = Process()
        process.executableURL = try CLI.executable.get()
        process.arguments = ["serve", "--library", library.path, "--backend", "folder", "--port", "0", "--log-level", "error"]
        var environment = CLI.environment([:], scratch: scratch)
        environment["ASSETS_PICKER_CLIENT_KEY"] = nil
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let exit = ExitStatus()
        process.terminationHandler = { exit.set($0.terminationStatus) }
        try process.run()
        defer { if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) } }
        let text = await Self.text(of: output.fileHandleForReading, through: "Ctrl-C")
        Glibc.kill(process.processIdentifier, SIGTERM)
        try await HangGuard.waitUntil("serve's exit", limit: .seconds(60)) { exit.status != nil }

        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count <= 14, "short: \(text)")
        let first = try #require(lines.first)
        #expect(first.hasPrefix("AssetsPicker is serving \(library.standardizedFileURL.path) (folder library) at http://127.0.0.1:"), "\(text)")
        let port = try #require(Int(first.split(separator: ":").last?.trimmingCharacters(in: CharacterSet(charactersIn: "/")) ?? ""))

        // The link to open is alone on its line, right under the sentence that says to open it.
        let linkIndex = try #require(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces).hasPrefix("http://127.0.0.1:\(port)/signin/") }, "\(text)")
        #expect(!lines[linkIndex].trimmingCharacters(in: .whitespaces).contains(" "), "nothing else on the link's line")
        let saying = lines[..<linkIndex].last { !$0.isEmpty } ?? ""
        #expect(saying.hasPrefix("To pick, open this link in a browser"), "\(text)")
        #expect(saying.contains("works once"), "\(text)")

        // After Done a newcomer sees what a program received, and the demo client page is named.
        #expect(text.contains("what a program received") && text.contains("http://127.0.0.1:\(port)/demo/"), "\(text)")
        #expect(text.contains("the API is http://127.0.0.1:\(port)/v1"), "\(text)")
        #expect(text.contains("'Authorization: Bearer <key>'"), "\(text)")
        #expect(!text.contains("demo library"), "a library of one's own is not called the demo: \(text)")
        #expect(lines.contains("Press Ctrl-C to stop the server."), "\(text)")
    }

    @Test("at the default log level, nothing comes before the start-up lines on the terminal; an indexed library says it is watched")
    func nothingBeforeTheStartUpLines() async throws {
        let scratch = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let library = scratch.appendingPathComponent("photos", isDirectory: true)
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Corpus.file("A_camera_exif/goexif__sample1.jpg"), to: library.appendingPathComponent("sample.jpg"))

        let process = Process()
        process.executableURL = try CLI.executable.get()
        process.arguments = ["serve", "--library", library.path, "--port", "0"]
        process.environment = CLI.environment([:], scratch: scratch)
        // One pipe for both, as a terminal shows them.
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let exit = ExitStatus()
        process.terminationHandler = { exit.set($0.terminationStatus) }
        try process.run()
        defer { if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) } }
        let text = await Self.text(of: output.fileHandleForReading, through: "Ctrl-C")
        Glibc.kill(process.processIdentifier, SIGTERM)
        try await HangGuard.waitUntil("serve's exit", limit: .seconds(60)) { exit.status != nil }

        let first = text.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix("AssetsPicker is serving \(library.standardizedFileURL.path) (indexed library, watched for changes) at "), "\(text)")
    }

    /// What the server writes up to and including the first line containing `marker` (or all it
    /// writes, if it stops first), read on a thread of its own.
    static func text(of handle: FileHandle, through marker: String) async -> String {
        await withCheckedContinuation { continuation in
            Thread {
                var data = Data()
                while true {
                    let text = String(decoding: data, as: UTF8.self)
                    if let range = text.range(of: marker), text[range.upperBound...].contains("\n") { break }
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    data.append(chunk)
                }
                continuation.resume(returning: String(decoding: data, as: UTF8.self))
            }.start()
        }
    }
}
