import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

/// HTTP/1.1 over a plain socket, on a thread of its own: requests written back to back in one
/// go (pipelined, as URLSession never does), responses read in order. For what a client library
/// hides: pipelining, `Connection` handling, the exact headers.
enum RawHTTPExchange {
    struct Response: Sendable {
        let status: Int
        /// Header lines in the order sent, names lowercased.
        let headers: [(name: String, value: String)]
        let body: [UInt8]

        func header(_ name: String) -> String? { headers.first { $0.name == name.lowercased() }?.value }
    }

    /// Sends `requests` (each `(path, extra header lines)`) at once and reads their responses.
    /// With `untilClosed`, it then waits for the server to close the connection. `timeout` is a
    /// hang guard: the exchange takes milliseconds.
    /// - Parameters:
    ///   - method: Every request's method; with a `body`, each carries it (and its length).
    ///   - host: Every request's `Host` header; by default the address connected to.
    /// - Returns: The responses, and whether the server closed the connection.
    static func exchange(port: Int, method: String = "GET", host: String? = nil, body: String = "",
                         _ requests: [(path: String, headers: [String])], untilClosed: Bool = false,
                         timeout: Duration = HangGuard.defaultLimit) async -> (responses: [Response], closed: Bool) {
        let host = host ?? "127.0.0.1:\(port)"
        let text = requests.map { request in
            let length = body.isEmpty ? [] : ["Content-Length: \(body.utf8.count)"]
            return (["\(method) \(request.path) HTTP/1.1", "Host: \(host)"] + length + request.headers).joined(separator: "\r\n") + "\r\n\r\n" + body
        }.joined()
        return await withCheckedContinuation { continuation in
            Thread {
                continuation.resume(returning: run(port: port, text, expecting: requests.count, untilClosed: untilClosed, timeout: timeout))
            }.start()
        }
    }

    private static func run(port: Int, _ text: String, expecting expected: Int, untilClosed: Bool, timeout: Duration) -> ([Response], Bool) {
        guard let fd = LoopbackSocket.connect(port: port, readTimeout: timeval(tv_sec: 0, tv_usec: 200_000)) else { return ([], false) }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        guard send(fd, bytes, bytes.count, 0) == bytes.count else { return ([], false) }
        var received: [UInt8] = [], responses: [Response] = [], closed = false
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline, !closed {
            while let (response, length) = parse(received) {
                responses.append(response)
                received.removeFirst(length)
            }
            if responses.count == expected, !untilClosed { break }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count == 0 { closed = true }
            if count > 0 { received += buffer[0..<count] }
        }
        return (responses, closed)
    }

    /// The first whole response in `bytes` and its length on the wire.
    private static func parse(_ bytes: [UInt8]) -> (Response, Int)? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard bytes.count >= 4, let end = (0...(bytes.count - 4)).first(where: { Array(bytes[$0..<$0 + 4]) == separator }) else { return nil }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        guard let statusLine = lines.first, let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") else { return nil }
        let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let length = status == 304 || status == 204 ? 0 : Int(headers.first { $0.name == "content-length" }?.value ?? "0") ?? 0
        let bodyStart = end + 4
        guard bytes.count >= bodyStart + length else { return nil }
        return (Response(status: status, headers: headers, body: Array(bytes[bodyStart..<bodyStart + length])), bodyStart + length)
    }
}
