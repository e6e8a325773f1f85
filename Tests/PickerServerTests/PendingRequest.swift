import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import TestSupport

/// One request without a body (a GET, or a POST such as a transfer's) on a connection of its own,
/// sent and left open: the test closes the connection (a browser cancelling an image, a page
/// leaving its large view), waits for the answer's status or reads its events as they come.
final class PendingRequest: Sendable {
    private let socket: Int32
    private let closed = Mutex(false)
    /// The bytes read so far by ``events(until:limit:)``.
    private let received = Mutex<[UInt8]>([])

    /// Connects to 127.0.0.1:`port` and sends `method path` with `headers` (whole lines).
    init(port: Int, method: String = "GET", path: String, headers: [String]) throws {
        guard let socket = LoopbackSocket.connect(port: port, readTimeout: timeval(tv_sec: 0, tv_usec: 100_000)) else {
            throw POSIXError(.ECONNREFUSED)
        }
        self.socket = socket
        let length = method == "GET" ? [] : ["Content-Length: 0"]
        let text = (["\(method) \(path) HTTP/1.1", "Host: 127.0.0.1:\(port)"] + length + headers).joined(separator: "\r\n") + "\r\n\r\n"
        let bytes = Array(text.utf8)
        guard send(socket, bytes, bytes.count, 0) == bytes.count else {
            Glibc.close(socket)
            throw POSIXError(.EPIPE)
        }
    }

    deinit { close() }

    /// Closes the connection, as a browser does with an image it no longer wants.
    func close() {
        let wasOpen = closed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        if wasOpen { Glibc.close(socket) }
    }

    /// The answer's status, read on a thread of its own; `nil` when the connection closes first.
    /// `limit` is a hang guard.
    func status(limit: Duration = HangGuard.defaultLimit) async -> Int? {
        await withCheckedContinuation { continuation in
            Thread { [self] in
                continuation.resume(returning: readStatus(until: ContinuousClock.now + limit))
            }.start()
        }
    }

    private func readStatus(until deadline: ContinuousClock.Instant) -> Int? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while ContinuousClock.now < deadline, !closed.withLock({ $0 }) {
            if let end = received.firstIndex(of: UInt8(ascii: "\r")) {
                // "HTTP/1.1 200 OK"
                let line = String(decoding: received[..<end], as: UTF8.self).split(separator: " ")
                return line.count > 1 ? Int(line[1]) : nil
            }
            let count = recv(socket, &buffer, buffer.count, 0)
            if count == 0 { return nil }
            if count > 0 { received += buffer[0..<count] }
        }
        return nil
    }

    /// The answer as read so far (head and body, as sent), read on a thread of its own until
    /// `enough` holds or the connection closes; `limit` is a hang guard.
    func bytes(limit: Duration = HangGuard.defaultLimit, until enough: @escaping @Sendable ([UInt8]) -> Bool) async -> [UInt8] {
        await withCheckedContinuation { continuation in
            Thread { [self] in
                var buffer = [UInt8](repeating: 0, count: 65_536)
                let deadline = ContinuousClock.now + limit
                while ContinuousClock.now < deadline, !closed.withLock({ $0 }), !enough(received.withLock { $0 }) {
                    let count = recv(socket, &buffer, buffer.count, 0)
                    if count == 0 { break }
                    if count > 0 { received.withLock { $0 += buffer[0..<count] } }
                }
                continuation.resume(returning: received.withLock { $0 })
            }.start()
        }
    }

    /// An answer's head (lines, names lowercased) and body, a chunked body decoded as far as it
    /// has come; `nil` before the head is complete.
    static func parse(_ answer: [UInt8]) -> (head: [String], body: [UInt8], ended: Bool)? {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = answer.indices.first(where: { answer[$0...].starts(with: separator) }) else { return nil }
        let head = String(decoding: answer[..<end], as: UTF8.self).components(separatedBy: "\r\n").map { $0.lowercased() }
        var rest = Array(answer[(end + 4)...])
        guard head.contains("transfer-encoding: chunked") else { return (head, rest, false) }
        var body: [UInt8] = []
        while let lineEnd = rest.indices.first(where: { rest[$0...].starts(with: Array("\r\n".utf8)) }),
              let size = Int(String(decoding: rest[..<lineEnd], as: UTF8.self), radix: 16) {
            if size == 0 { return (head, body, true) }
            guard rest.count >= lineEnd + 2 + size else { break }
            body += rest[(lineEnd + 2)..<(lineEnd + 2 + size)]
            rest.removeFirst(min(rest.count, lineEnd + 4 + size))
        }
        return (head, body, false)
    }

    /// A server-sent event of the answer: its name and its data line.
    struct Event: Sendable, Equatable {
        let name: String
        let data: String
    }

    /// The answer's events read so far, read on a thread of its own until `enough` holds, the
    /// answer ends or the connection closes; `limit` is a hang guard.
    func events(limit: Duration = HangGuard.defaultLimit, until enough: @escaping @Sendable ([Event]) -> Bool) async -> [Event] {
        await withCheckedContinuation { continuation in
            Thread { [self] in
                continuation.resume(returning: readEvents(until: ContinuousClock.now + limit, enough: enough))
            }.start()
        }
    }

    private func readEvents(until deadline: ContinuousClock.Instant, enough: ([Event]) -> Bool) -> [Event] {
        var buffer = [UInt8](repeating: 0, count: 4_096)
        var events = Self.events(in: received.withLock { $0 })
        while ContinuousClock.now < deadline, !closed.withLock({ $0 }), !enough(events) {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count == 0 { break }
            if count > 0 {
                events = Self.events(in: received.withLock { received in
                    received += buffer[0..<count]
                    return received
                })
            }
        }
        return events
    }

    /// The events in the bytes of an answer (its head and chunk sizes are lines that are neither).
    private static func events(in bytes: [UInt8]) -> [Event] {
        // "\r\n" is one Character in Swift: split on scalars.
        let lines = String(decoding: bytes, as: UTF8.self).unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
            .map { String(String.UnicodeScalarView($0)).trimmingCharacters(in: .whitespacesAndNewlines) }
        var events: [Event] = []
        for (index, line) in lines.enumerated() where line.hasPrefix("event: ") && index + 1 < lines.count {
            guard lines[index + 1].hasPrefix("data: "), lines.count > index + 2 else { continue }
            events.append(Event(name: String(line.dropFirst(7)), data: String(lines[index + 1].dropFirst(6))))
        }
        return events
    }
}
