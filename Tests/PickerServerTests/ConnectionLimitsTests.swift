import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PickerServer
import Testing
import TestSupport

/// Idle connections are closed, slow request heads and bodies get 408, a body over its route's
/// limit 413 at once, and one address holds a bounded number of connections. Every read below
/// has a hang guard, far above the sub-second limits the servers are given; no test measures a duration. The servers are
/// otherwise on ``PickerServerLimits/forTests`` (no idle close while a test waits for a thread).
@Suite("Connections are held to the server's limits")
struct ConnectionLimitsTests {
    /// Reads until the server closes the connection (or the hang guard gives up: `closed` false).
    private static func readToClose(_ fd: Int32) -> (text: String, closed: Bool) {
        var received: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count > 0 { received += buffer[0..<count]; continue }
            return (String(decoding: received, as: UTF8.self), count == 0)
        }
    }

    /// A hang guard on every read: answers take milliseconds, but a loaded machine can hold the
    /// server's event loops for tens of seconds.
    private static let hangGuard = timeval(tv_sec: 300, tv_usec: 0)

    private static func send(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        _ = Glibc.send(fd, bytes, bytes.count, 0)
    }

    @Test("a connection that sends nothing is closed once idle")
    func idleConnectionClosed() async throws {
        var limits = PickerServerLimits.forTests
        limits.idleTimeout = .milliseconds(200)
        let server = try await TestServer.indexed(limits: limits)
        defer { Task { await server.stop() } }
        let fd = try #require(LoopbackSocket.connect(port: server.baseURL.port!, readTimeout: Self.hangGuard))
        defer { close(fd) }
        let answer = await OwnThread.run { Self.readToClose(fd) }
        #expect(answer.closed, "the server kept the idle connection open")
        #expect(answer.text.isEmpty)
    }

    @Test("a request head trickled in slower than the header timeout gets 408 and the connection is closed")
    func slowHeadTimesOut() async throws {
        var limits = PickerServerLimits.forTests
        limits.headerTimeout = .milliseconds(300)
        let server = try await TestServer.indexed(limits: limits)
        defer { Task { await server.stop() } }
        let fd = try #require(LoopbackSocket.connect(port: server.baseURL.port!, readTimeout: Self.hangGuard))
        defer { close(fd) }
        let answer = await OwnThread.run {
            Self.send(fd, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a")
            return Self.readToClose(fd)
        }
        #expect(answer.text.hasPrefix("HTTP/1.1 408 "), "\(answer.text)")
        #expect(answer.text.contains("headerTimeout"))
        #expect(answer.closed)
    }

    @Test("whole requests, two pipelined on one connection, are answered under a short header timeout")
    func wholeRequestsAnswered() async throws {
        var limits = PickerServerLimits.forTests
        limits.headerTimeout = .milliseconds(300)
        let server = try await TestServer.indexed(limits: limits)
        defer { Task { await server.stop() } }
        let exchange = await RawHTTPExchange.exchange(port: server.baseURL.port!, [("/", []), ("/openapi.json", [])])
        #expect(exchange.responses.map(\.status) == [200, 200])
    }

    @Test("one connection more than an address may hold, all serving requests, is answered 503 and closed")
    func connectionsPerAddress() async throws {
        var limits = PickerServerLimits.forTests
        limits.connectionsPerAddress = 3
        let server = try await TestServer.indexed(limits: limits)
        defer { Task { await server.stop() } }
        let port = server.baseURL.port!
        let session = try await server.client.createSession()
        let events = "GET \(session.pickerPath)api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: \(server.personCookie)\r\n\r\n"
        // Each holds a picker page's event stream open: a request being served, for as long as it stays.
        let held: [(fd: Int32, answered: Bool)] = await OwnThread.run {
            (0..<3).compactMap { _ in
                guard let fd = LoopbackSocket.connect(port: port, readTimeout: Self.hangGuard) else { return nil }
                Self.send(fd, events)
                var buffer = [UInt8](repeating: 0, count: 4096)
                return (fd, recv(fd, &buffer, buffer.count, 0) > 0)
            }
        }
        defer { held.forEach { close($0.fd) } }
        try #require(held.count == 3 && held.allSatisfy(\.answered), "the first three connections were not all answered")
        let extra = try #require(LoopbackSocket.connect(port: port, readTimeout: Self.hangGuard))
        defer { close(extra) }
        let refused = await OwnThread.run { Self.readToClose(extra) }
        #expect(refused.text.hasPrefix("HTTP/1.1 503 "), "\(refused.text)")
        #expect(refused.text.contains("tooManyConnections"))
        #expect(refused.closed)
    }

    @Test("a trusted proxy's connections count in all, not against one address's limit")
    func trustedProxyConnections() async throws {
        var limits = PickerServerLimits.forTests
        limits.connectionsPerAddress = 3
        limits.trustedProxies = ["127.0.0.1"]
        let server = try await TestServer.indexed(limits: limits)
        defer { Task { await server.stop() } }
        let port = server.baseURL.port!
        let session = try await server.client.createSession()
        let events = "GET \(session.pickerPath)api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: \(server.personCookie)\r\n\r\n"
        let held: [(fd: Int32, answer: String)] = await OwnThread.run {
            (0..<5).compactMap { _ in
                guard let fd = LoopbackSocket.connect(port: port, readTimeout: Self.hangGuard) else { return nil }
                Self.send(fd, events)
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = recv(fd, &buffer, buffer.count, 0)
                return (fd, String(decoding: buffer[0..<max(0, count)], as: UTF8.self))
            }
        }
        defer { held.forEach { close($0.fd) } }
        #expect(held.count == 5)
        #expect(held.allSatisfy { $0.answer.hasPrefix("HTTP/1.1 200 ") }, "\(held.map(\.answer))")
    }

    @Test("at an address's limit, a new connection takes the place of a silent one, which is closed")
    func silentConnectionsGiveWay() async throws {
        var limits = PickerServerLimits.forTests
        limits.connectionsPerAddress = 3
        let server = try await TestServer.indexed(limits: limits)
        defer { Task { await server.stop() } }
        let port = server.baseURL.port!
        // Three sockets that never send a byte (all of loopback shares one address).
        let silent: [Int32] = await OwnThread.run { (0..<3).compactMap { _ in LoopbackSocket.connect(port: port, readTimeout: Self.hangGuard) } }
        defer { silent.forEach { close($0) } }
        try #require(silent.count == 3)
        // A real request still gets through, on a fourth connection. (A fifth right after may or
        // may not find the fourth's place given back yet: whether it takes another silent one's
        // place depends on that timing alone, so it is not asked here.)
        let exchange = await RawHTTPExchange.exchange(port: port, [("/openapi.json", ["Connection: close"])])
        #expect(exchange.responses.map(\.status) == [200])
        // One silent one was closed to make room for the fourth.
        let closed = await OwnThread.run { silent.map { fd in
            var buffer = [UInt8](repeating: 0, count: 16)
            var timeout = timeval(tv_sec: 0, tv_usec: 300_000)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            return recv(fd, &buffer, buffer.count, 0) == 0
        } }
        #expect(closed.filter { $0 }.count == 1, "\(closed)")
    }

    /// The outside attack's F1: with the client key, four bodies sent a byte every 40 s held
    /// every connection an address may have, and the person got 503 for minutes.
    @Test("bodies that stop arriving, with the client key or the person's cookie, get 408 and give their places back")
    func stalledBodiesGiveWay() async throws {
        var limits = PickerServerLimits.forTests
        limits.connectionsPerAddress = 3
        limits.bodyTimeout = .milliseconds(300)
        let server = try await TestServer.indexed(limits: limits)
        defer { Task { await server.stop() } }
        let port = server.baseURL.port!
        let heads = [
            "POST /v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(server.clientKey)\r\n",
            "POST /v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(server.clientKey)\r\n",
            "POST /demo/v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: \(server.personCookie)\r\nOrigin: http://127.0.0.1:\(port)\r\n",
        ].map { $0 + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{" }
        // All three places of the address, each serving a request whose body stopped after a byte.
        let answers: [(text: String, closed: Bool)] = await OwnThread.run {
            let held = heads.compactMap { head -> Int32? in
                guard let fd = LoopbackSocket.connect(port: port, readTimeout: Self.hangGuard) else { return nil }
                Self.send(fd, head)
                return fd
            }
            defer { held.forEach { close($0) } }
            return held.map { Self.readToClose($0) }
        }
        #expect(answers.count == 3)
        for answer in answers {
            #expect(answer.text.hasPrefix("HTTP/1.1 408 "), "\(answer.text)")
            #expect(answer.text.contains("bodyTimeout"))
            #expect(answer.closed)
        }
        #expect(server.sessionCount == 0)
        // Their places are free again: the person's page loads.
        let page = await RawHTTPExchange.exchange(port: port, [("/demo/", ["Cookie: \(server.personCookie)", "Connection: close"])])
        #expect(page.responses.map(\.status) == [200])
    }

    @Test("a Content-Length over the route's limit is answered 413 before the body is read, and the connection closes",
          arguments: ["/v1/sessions", "/demo/v1/sessions", "picker upload"])
    func declaredLengthOverTheLimit(_ route: String) async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let port = server.baseURL.port!
        let path: String, credentials: String
        switch route {
        case "/v1/sessions":
            (path, credentials) = (route, "Authorization: Bearer \(server.clientKey)\r\n")
        case "picker upload":
            let session = try await server.client.createSession()
            (path, credentials) = (session.pickerPath + "api/upload?filename=a.jpg", "Cookie: \(server.personCookie)\r\nOrigin: http://127.0.0.1:\(port)\r\n")
        default:
            (path, credentials) = (route, "Cookie: \(server.personCookie)\r\nOrigin: http://127.0.0.1:\(port)\r\n")
        }
        // Far over any limit (the upload's too), and only two bytes of it sent: waiting for the rest would wait forever.
        let request = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(credentials)Content-Length: 99999999999\r\n\r\n{}"
        let fd = try #require(LoopbackSocket.connect(port: port, readTimeout: Self.hangGuard))
        defer { close(fd) }
        let answer = await OwnThread.run {
            Self.send(fd, request)
            return Self.readToClose(fd)
        }
        #expect(answer.text.hasPrefix("HTTP/1.1 413 "), "\(answer.text)")
        #expect(answer.text.contains("bodyTooLarge") || answer.text.contains("RESOURCE_EXHAUSTED"), "\(answer.text)")
        #expect(answer.closed)
    }

    @Test("a request SwiftNIO cannot read as HTTP gets one line of JSON, 400, and the connection closes")
    func malformedRequest() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let port = server.baseURL.port!
        // Both framings at once: the way request smuggling starts, refused whatever the route.
        let request = "POST /v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(server.clientKey)\r\n"
            + "Transfer-Encoding: chunked\r\nContent-Length: 7\r\n\r\n2\r\n{}\r\n0\r\n\r\n"
        let fd = try #require(LoopbackSocket.connect(port: port, readTimeout: Self.hangGuard))
        defer { close(fd) }
        let answer = await OwnThread.run {
            Self.send(fd, request)
            return Self.readToClose(fd)
        }
        #expect(answer.text.hasPrefix("HTTP/1.1 400 "), "\(answer.text)")
        let body = try #require(answer.text.components(separatedBy: "\r\n\r\n").last)
        let error = try #require((try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])?["error"] as? [String: Any])
        #expect(error["code"] as? String == "malformedRequest")
        #expect(answer.closed)
        #expect(server.sessionCount == 0)
    }
}
