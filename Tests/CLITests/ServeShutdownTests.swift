import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing
import TestSupport

/// `assets-picker serve` stops when asked (SIGTERM, or SIGINT from Ctrl-C), also while a picker
/// page holds its live feed open: the feed ends, the connection closes, the process exits 0.
@Suite struct ServeShutdownTests {
    @Test func sigtermStopsTheServerWhileAPickerPageListens() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-stop-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: Corpus.file("A_camera_exif/pillow__flower.jpg"), to: folder.appendingPathComponent("flower.jpg"))

        let server = Process()
        server.executableURL = try CLI.executable.get()
        server.arguments = ["serve", "--library", folder.path, "--backend", "folder", "--port", "0", "--json", "--log-level", "error"]
        server.environment = CLI.environment(["ASSETS_PICKER_CLIENT_KEY": UUID().uuidString + UUID().uuidString], scratch: folder)
        let output = Pipe()
        server.standardOutput = output
        server.standardError = FileHandle.nullDevice
        let exit = ExitStatus()
        server.terminationHandler = { exit.set($0.terminationStatus) }
        try server.run()
        defer { if server.isRunning { kill(server.processIdentifier, SIGKILL) } }

        let announcement = try await Self.firstLine(of: output.fileHandleForReading)
        let signInText = try #require(announcement["signInUrl"] as? String), pickerText = try #require(announcement["pickerUri"] as? String)
        let signIn = try #require(URLComponents(string: signInText))
        let picker = try #require(URL(string: pickerText))
        let port = try #require(signIn.port)
        let signedIn = try Self.exchange(port: port, "GET \(signIn.percentEncodedPath)?\(signIn.percentEncodedQuery ?? "") HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", until: "\r\n\r\n")
        let setCookie = try #require(signedIn.text.split(separator: "\r\n").first { $0.lowercased().hasPrefix("set-cookie:") })
        let cookie = setCookie.dropFirst("set-cookie:".count).split(separator: ";")[0].trimmingCharacters(in: .whitespaces)
        close(signedIn.socket)

        let page = try Self.exchange(port: port, "GET \(picker.path)/api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: \(cookie)\r\n\r\n", until: "retry:")
        defer { close(page.socket) }
        #expect(page.text.hasPrefix("HTTP/1.1 200"))

        kill(server.processIdentifier, SIGTERM)
        try await HangGuard.waitUntil("serve's exit after SIGTERM with a page listening", limit: .seconds(60)) { exit.status != nil }
        #expect(exit.status == 0)
        #expect(Self.readsToTheEnd(page.socket), "the page's feed ended and its connection closed")
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

    /// Sends `request` on a new connection and reads until `marker` arrives (a hang guard of a minute).
    private static func exchange(port: Int, _ request: String, until marker: String) throws -> (socket: Int32, text: String) {
        let socket = try #require(LoopbackSocket.connect(port: port, readTimeout: timeval(tv_sec: 0, tv_usec: 200_000)))
        let bytes = Array(request.utf8)
        #expect(send(socket, bytes, bytes.count, 0) == bytes.count)
        var received: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 4_096)
        let deadline = ContinuousClock.now + .seconds(60)
        while !String(decoding: received, as: UTF8.self).contains(marker), ContinuousClock.now < deadline {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count == 0 { break }
            if count > 0 { received += buffer[0..<count] }
        }
        return (socket, String(decoding: received, as: UTF8.self))
    }

    /// Whether the peer closes `socket` (reads until the end; a hang guard of a minute).
    private static func readsToTheEnd(_ socket: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4_096)
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count == 0 { return true }
            if count < 0, errno != EAGAIN, errno != EWOULDBLOCK { return true }
        }
        return false
    }
}

/// A child's exit status, set by its termination handler.
private final class ExitStatus: Sendable {
    private let value = Mutex<Int32?>(nil)
    var status: Int32? { value.withLock { $0 } }
    func set(_ status: Int32) { value.withLock { $0 = status } }
}
