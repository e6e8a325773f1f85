import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import TestSupport

/// One GET on a connection of its own, sent and left open: the test closes the connection (a
/// browser cancelling an image) or waits for the answer's status.
final class PendingRequest: Sendable {
    private let socket: Int32
    private let closed = Mutex(false)

    /// Connects to 127.0.0.1:`port` and sends `GET path` with `headers` (whole lines).
    init(port: Int, path: String, headers: [String]) throws {
        guard let socket = LoopbackSocket.connect(port: port, readTimeout: timeval(tv_sec: 0, tv_usec: 100_000)) else {
            throw POSIXError(.ECONNREFUSED)
        }
        self.socket = socket
        let text = (["GET \(path) HTTP/1.1", "Host: 127.0.0.1:\(port)"] + headers).joined(separator: "\r\n") + "\r\n\r\n"
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
}
