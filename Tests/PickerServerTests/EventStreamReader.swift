import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

/// Reads a server-sent event stream over a plain socket on its own thread (FoundationNetworking
/// has no streaming reads), collecting event names until `enough` says so or `timeout` passes.
enum EventStreamReader {
    /// - Parameter cookie: The `Cookie` header to send (the person's signed-in browser).
    static func events(port: Int, path: String, cookie: String, timeout: Duration, onConnected: @escaping @Sendable () -> Void,
                       until enough: @escaping @Sendable ([String]) -> Bool) async -> [String] {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                let events = read(port: port, path: path, cookie: cookie, timeout: timeout, onConnected: onConnected, until: enough)
                onConnected() // a stream that never connected must not leave its caller waiting
                continuation.resume(returning: events)
            }
            thread.start()
        }
    }

    private static func read(port: Int, path: String, cookie: String, timeout: Duration, onConnected: () -> Void,
                             until enough: ([String]) -> Bool) -> [String] {
        guard let fd = LoopbackSocket.connect(port: port, readTimeout: timeval(tv_sec: 0, tv_usec: 200_000)) else { return [] }
        defer { close(fd) }
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: \(cookie)\r\nAccept: text/event-stream\r\n\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), 0) }
        var text = "", events: [String] = [], announced = false
        let deadline = ContinuousClock.now + timeout
        var buffer = [UInt8](repeating: 0, count: 4096)
        while ContinuousClock.now < deadline, !enough(events) {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count == 0 { break }
            if count > 0 { text += String(decoding: buffer[0..<count], as: UTF8.self) }
            if !announced, text.contains("retry:") {
                announced = true
                onConnected()
            }
            // "\r\n" is one Character in Swift: split on scalars.
            events = text.unicodeScalars.split(separator: "\n").map { String(String.UnicodeScalarView($0)) }
                .filter { $0.hasPrefix("event: ") }.map { String($0.dropFirst(7)) }
        }
        return events
    }
}
