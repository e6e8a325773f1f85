import Foundation
#if canImport(Glibc)
import Glibc
#endif
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

        let server = try await ServedProcess(library: folder, scratch: folder)
        defer { server.kill() }
        // A key given to the server is never printed.
        #expect(server.announcement["clientKey"] == nil)
        #expect(!server.announcement.values.contains { $0.contains(server.clientKey) })
        let signInText = try #require(server.announcement["signInUrl"]), pickerText = try #require(server.announcement["pickerUri"])
        let signIn = try #require(URLComponents(string: signInText))
        let picker = try #require(URL(string: pickerText))
        let port = server.port
        let signedIn = try Self.exchange(port: port, "GET \(signIn.percentEncodedPath)?\(signIn.percentEncodedQuery ?? "") HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", until: "\r\n\r\n")
        let setCookie = try #require(signedIn.text.split(separator: "\r\n").first { $0.lowercased().hasPrefix("set-cookie:") })
        let cookie = setCookie.dropFirst("set-cookie:".count).split(separator: ";")[0].trimmingCharacters(in: .whitespaces)
        close(signedIn.socket)

        let page = try Self.exchange(port: port, "GET \(picker.path)/api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: \(cookie)\r\n\r\n", until: "retry:")
        defer { close(page.socket) }
        #expect(page.text.hasPrefix("HTTP/1.1 200"))

        kill(server.process.processIdentifier, SIGTERM)
        try await server.waitForExit()
        #expect(server.exitStatus == 0)
        #expect(Self.readsToTheEnd(page.socket), "the page's feed ended and its connection closed")
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
