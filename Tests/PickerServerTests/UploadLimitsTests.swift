import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PickerClient
import PickerServer
import Testing
import TestSupport

/// Uploads stream to a temporary file under a byte cap, a few at a time, and leave nothing behind.
@Suite("Uploads are capped in size and number")
struct UploadLimitsTests {
    private static func limits(uploadFolder: URL) -> PickerServerLimits {
        var limits = PickerServerLimits.forTests
        limits.maximumUploadBytes = 1 << 20
        limits.concurrentUploads = 2
        limits.uploadFolder = uploadFolder
        return limits
    }

    private static func makeFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("uploads-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    private static func contents(_ folder: URL) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    }

    /// The header lines of the person's browser: its sign-in cookie and the page's origin.
    private static func person(_ server: TestServer) -> [String] {
        ["Cookie: \(server.personCookie)", "Origin: \(server.baseURL.absoluteString)"]
    }

    /// A raw upload that sends its head and the first `sent` bytes of its body, and holds the rest.
    private static func startUpload(port: Int, path: String, head: [String], body: [UInt8]) -> Int32? {
        guard let fd = LoopbackSocket.connect(port: port, readTimeout: timeval(tv_sec: 300, tv_usec: 0)) else { return nil }
        let text = (["POST \(path) HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/octet-stream"] + head)
            .joined(separator: "\r\n") + "\r\n\r\n"
        let bytes = Array(text.utf8) + body
        _ = send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL))
        return fd
    }

    /// Everything the server sends until it closes or the 10-second hang guard gives up.
    private static func readAnswer(_ fd: Int32) -> String {
        var received: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { return String(decoding: received, as: UTF8.self) }
            received += buffer[0..<count]
            if let text = String(validating: received, as: UTF8.self), let end = text.range(of: "\r\n\r\n"),
               let length = text[..<end.lowerBound].split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("content-length:") })
                .flatMap({ Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }),
               text.utf8.count >= text.utf8.distance(from: text.startIndex, to: end.upperBound) + length {
                return text
            }
        }
    }

    @Test("an upload whose Content-Length is over the cap is refused 413 and nothing is written")
    func declaredTooLarge() async throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await TestServer.indexed(limits: Self.limits(uploadFolder: folder))
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let answer = try await server.request("POST", session.pickerPath + "api/upload?filename=big.jpg",
                                              body: Data(repeating: 0xFF, count: 2 << 20), authorized: false, asPerson: true)
        #expect(answer.status == 413)
        #expect(answer.errorMessage == "Uploads are limited to 1048576 bytes.")
        #expect(Self.contents(folder).isEmpty)
    }

    @Test("a chunked upload that grows over the cap is refused 413 and its temporary file is removed")
    func streamedTooLarge() async throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await TestServer.indexed(limits: Self.limits(uploadFolder: folder))
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let chunk = [UInt8](repeating: 0xFF, count: 600 << 10)
        let chunked = Array("\(String(chunk.count, radix: 16))\r\n".utf8) + chunk + Array("\r\n".utf8)
        let body = chunked + chunked + Array("0\r\n\r\n".utf8)
        let port = server.baseURL.port!, path = session.pickerPath + "api/upload?filename=big.jpg"
        let person = Self.person(server)
        let answer = await OwnThread.run {
            guard let fd = Self.startUpload(port: port, path: path, head: person + ["Transfer-Encoding: chunked"], body: body) else { return "" }
            defer { close(fd) }
            return Self.readAnswer(fd)
        }
        #expect(answer.hasPrefix("HTTP/1.1 413 "), "\(answer.prefix(300))")
        #expect(Self.contents(folder).isEmpty, "left behind: \(Self.contents(folder))")
    }

    @Test("a third upload while two are being received gets 503 with Retry-After")
    func concurrencyCap() async throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await TestServer.indexed(limits: Self.limits(uploadFolder: folder))
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let path = session.pickerPath + "api/upload?filename=slow.jpg"
        let port = server.baseURL.port!, person = Self.person(server)
        let held = await OwnThread.run {
            (0..<2).compactMap { _ in
                Self.startUpload(port: port, path: path, head: person + ["Content-Length: 1000"], body: [UInt8](repeating: 0xFF, count: 10))
            }
        }
        defer { held.forEach { close($0) } }
        try #require(held.count == 2)
        // Both are being received once each has its folder.
        try await HangGuard.waitUntil("the two uploads' folders") { Self.contents(folder).count == 2 }
        let third = try await server.request("POST", path, body: Data([0xFF, 0xD8]), authorized: false, asPerson: true)
        #expect(third.status == 503)
        #expect(third.header("Retry-After") == "5")
        #expect((third.json["error"] as? [String: Any])?["code"] as? String == "tooManyUploads")
    }
}
