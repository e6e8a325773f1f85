import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// A server cannot be exhausted by connections: under a low open-file limit, connections from
/// many addresses beyond what the limit leaves room for take idle ones' places or are answered
/// 503, the server never holds more than its room, and it goes on.
@Suite struct ServeOpenFilesTests {
    /// A hang guard on every read: answers take milliseconds.
    private static let hangGuard = timeval(tv_sec: 60, tv_usec: 0)

    @Test func connectionsFromManyAddressesBeyondTheOpenFileLimitAreRefusedAndTheServerGoesOn() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-files-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: Corpus.file("A_camera_exif/pillow__flower.jpg"), to: folder.appendingPathComponent("flower.jpg"))
        // 160 open files leave room for 96 connections (a reserve of 64).
        let server = try await ServedProcess(library: folder, scratch: folder, openFiles: 160)
        defer { server.kill() }
        let port = server.port

        // 12 addresses × 20 connections, each asking for the home page, then held open: more
        // than the open-file limit itself. Each is answered (a new one takes an idle one's place,
        // which is closed) or refused 503; the server holds at most 96 open.
        let answers: [(fd: Int32, status: String)] = await OwnThread.run {
            (2...13).flatMap { host in
                (0..<20).compactMap { _ in
                    guard let fd = LoopbackSocket.connect(port: port, readTimeout: Self.hangGuard, from: "127.0.0.\(host)") else { return nil }
                    return (fd, Self.ask(fd, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
                }
            }
        }
        #expect(answers.count == 240)
        #expect(answers.allSatisfy { $0.status.hasPrefix("HTTP/1.1 200") || $0.status.contains("serverFull") })
        let stillOpen: Int = await OwnThread.run {
            answers.filter { answer in
                var buffer = [UInt8](repeating: 0, count: 16)
                var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
                setsockopt(answer.fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                return recv(answer.fd, &buffer, buffer.count, 0) != 0
            }.count
        }
        #expect(stillOpen <= 96, "\(stillOpen) connections held open")
        #expect(server.exitStatus == nil, "the server ended")
        answers.forEach { close($0.fd) }

        // Once they are closed, the server answers again.
        let again: String = await OwnThread.run {
            guard let fd = LoopbackSocket.connect(port: port, readTimeout: Self.hangGuard, from: "127.0.0.14") else { return "no connection" }
            defer { close(fd) }
            return Self.ask(fd, "GET /openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        }
        #expect(again.hasPrefix("HTTP/1.1 200"), "\(again.prefix(80))")
        #expect(server.exitStatus == nil)
    }

    /// Sends `request` and reads until the end of the answer's head and its body's first bytes (or the connection's end).
    private static func ask(_ fd: Int32, _ request: String) -> String {
        let bytes = Array(request.utf8)
        _ = send(fd, bytes, bytes.count, 0)
        var received: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 4_096)
        while !String(decoding: received, as: UTF8.self).contains("\r\n\r\n") {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }
}
