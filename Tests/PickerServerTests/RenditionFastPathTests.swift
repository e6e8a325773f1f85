import AssetsKit
import FolderLibrary
import Foundation
import HTTPTypes
import Hummingbird
import ImagePipeline
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1
@testable import PickerServer
import PickerSessions
import Synchronization
import Testing
import TestSupport

/// The event-loop fast path for warm thumbnails: what it answers itself, and what it leaves to
/// the router, part for part.
@Suite struct RenditionFastPathTests {
    /// A server state over a folder library of one camera photo, a live session the router has
    /// let a request into (its grant remembered), the photo as the page listed it, and its 64x64
    /// fill rendition remembered.
    private struct Fixture {
        let state: ServerState
        let session: PickerSession
        let asset: Asset
        let rendition = ByteBuffer(bytes: Array(repeating: 0xAB, count: 2_000))
        /// The `Cookie` header of the person's signed-in browser.
        let personCookie: String

        init(grants: SessionGrants = SessionGrants()) async throws {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("fast-path-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            let photo = try #require(Corpus.files(in: "A_camera_exif") { $0.pathExtension.lowercased() == "jpg" }.first)
            try FileManager.default.copyItem(at: photo, to: root.appendingPathComponent(photo.lastPathComponent))
            let library = FolderLibrary(root: root)
            asset = try #require(try await library.assets(in: FolderLibrary.cameraRollID, options: FetchOptions()).assets(in: 0..<1).first)
            let sessions = MemorySessionStore()
            session = try sessions.create(settings: PickerSessionSettings(maxItems: 5), preselected: [], place: .shared)
            let signIn = PersonSignIn()
            state = ServerState(configuration: PickerServerConfiguration(clientKey: "fast-path-client-key-0123"), library: library,
                                sessions: sessions, media: MediaResponder(library: library), assets: AssetMemo(),
                                fetches: FetchMemo(library: library), logger: Logger(label: "test"), boundAddress: BoundAddress(),
                                signIn: signIn, showSignInLink: { _ in }, grants: grants)
            state.grants.remember(session)
            let browser = try #require(try await signIn.redeem(link: signIn.makeLink()))
            personCookie = "\(state.personCookieName)=\(browser)"
            state.assets.remember([asset])
            let request = try ImageRequest(priority: .visibleFirst) { ["w": "64", "h": "64", "mode": "fill"][$0] }
            let head = HTTPResponse(status: .ok, headerFields: [.contentType: "image/jpeg", .contentLength: "2000", .eTag: "\"cafe\"",
                                                                HTTPField.Name("X-Image-Size")!: "64x64"])
            state.media.renditions.remember(RenditionMemo.Rendition(answer: PreparedAnswer(head: head, body: rendition), tag: "\"cafe\"",
                                                                    cacheControl: state.media.cacheControl),
                                            for: RenditionKey(asset, request))
        }

        func path(_ query: String, token: String? = nil, asset id: String? = nil) -> String {
            "/picker/\(session.id)/\(token ?? session.pickerToken)/api/assets/\(id ?? asset.id.uuid.uuidString)/image?\(query)"
        }

        /// The fast path behind SwiftNIO's HTTP/1 encoder, as in a connection's pipeline.
        func channel() throws -> EmbeddedChannel {
            EmbeddedChannel(handlers: [HTTPResponseEncoder(), RenditionFastPath(state: state, serverName: "assets-picker")])
        }
    }

    /// Sends a request as the person's browser (with its cookie), unless `cookie` says otherwise.
    private func send(_ path: String, method: HTTPMethod = .GET, version: HTTPVersion = .http1_1, headers: HTTPHeaders = [:],
                      cookie: String? = nil, to channel: EmbeddedChannel, from fixture: Fixture) throws {
        var headers = headers
        headers.add(name: "Cookie", value: cookie ?? fixture.personCookie)
        try channel.writeInbound(HTTPServerRequestPart.head(HTTPRequestHead(version: version, method: method, uri: path, headers: headers)))
        try channel.writeInbound(HTTPServerRequestPart.end(nil))
    }

    /// The parts the handler passed on to the router.
    private func forwarded(_ channel: EmbeddedChannel) throws -> [HTTPServerRequestPart] {
        var parts: [HTTPServerRequestPart] = []
        while let part = try channel.readInbound(as: HTTPServerRequestPart.self) { parts.append(part) }
        return parts
    }

    /// The bytes that went out: the handler's own answers and, encoded, the router's.
    private func writtenBytes(_ channel: EmbeddedChannel) throws -> [UInt8] {
        var bytes: [UInt8] = []
        while let data = try channel.readOutbound(as: IOData.self) {
            guard case .byteBuffer(let buffer) = data else { Issue.record("a file region went out"); continue }
            bytes += buffer.readableBytesView
        }
        return bytes
    }

    /// `bytes` of an answer without its `Date` header line: the date is stamped once a second,
    /// so two answers that are otherwise the same differ there when a second boundary falls between them.
    private func withoutDate(_ bytes: [UInt8]) -> [UInt8] {
        let marker = Array("\r\nDate: ".utf8), end = Array("\r\n".utf8)
        guard let start = bytes.indices.first(where: { bytes[$0...].starts(with: marker) }) else { return bytes }
        var stop = start + marker.count
        while stop < bytes.count, !bytes[stop...].starts(with: end) { stop += 1 }
        return Array(bytes[..<start] + bytes[stop...])
    }

    /// What went out as text (a body's bytes that are not UTF-8 read as replacement characters).
    private func written(_ channel: EmbeddedChannel) throws -> String {
        String(decoding: try writtenBytes(channel), as: UTF8.self)
    }

    /// The router's answer to a forwarded request: a head of `status` and its end.
    private func answerAsTheRouter(_ channel: EmbeddedChannel, status: HTTPResponseStatus = .ok, body: String? = nil) throws {
        let headers: HTTPHeaders = body.map { ["Content-Length": "\($0.utf8.count)"] } ?? [:]
        try channel.writeOutbound(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers)))
        if let body { try channel.writeOutbound(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(string: body)))) }
        try channel.writeOutbound(HTTPServerResponsePart.end(nil))
    }

    @Test func aRememberedRenditionIsAnsweredOnTheEventLoopAndNeverReachesTheRouter() async throws {
        let fixture = try await Fixture()
        let channel = try fixture.channel()
        try send(fixture.path("w=64&h=64&mode=fill"), to: channel, from: fixture)
        #expect(try forwarded(channel).isEmpty)
        let bytes = try writtenBytes(channel)
        try #require(bytes.count > fixture.rendition.readableBytes)
        let head = String(decoding: bytes.dropLast(fixture.rendition.readableBytes), as: UTF8.self)
        let lines = head.components(separatedBy: "\r\n")
        #expect(lines.first == "HTTP/1.1 200 OK")
        #expect(head.hasSuffix("\r\n\r\n"))
        #expect(Array(lines.dropFirst().prefix(4)) == ["Content-Type: image/jpeg", "Content-Length: 2000", "ETag: \"cafe\"", "X-Image-Size: 64x64"])
        #expect(lines.contains("Server: assets-picker"))
        #expect(lines.contains { $0.hasPrefix("Date: ") && $0.hasSuffix(" GMT") })
        #expect(Array(bytes.suffix(fixture.rendition.readableBytes)) == Array(fixture.rendition.readableBytesView))
        // The same rendition asked for quickly is the final one too; a current copy gets 304 without a body.
        try send(fixture.path("w=64&h=64&mode=fill&delivery=fast"), to: channel, from: fixture)
        #expect(withoutDate(try writtenBytes(channel)) == withoutDate(bytes))
        try send(fixture.path("w=64&h=64&mode=fill"), headers: ["If-None-Match": "\"cafe\""], to: channel, from: fixture)
        let revalidated = try written(channel)
        #expect(revalidated.hasPrefix("HTTP/1.1 304 Not Modified\r\n"))
        #expect(revalidated.hasSuffix("\r\n\r\n"))
        #expect(!revalidated.contains("Content-Length"))
        #expect(try forwarded(channel).isEmpty)
    }

    @Test(arguments: [
        "w=128&h=128&mode=fill",            // not remembered: to be rendered
        "w=64&h=64&mode=%66ill",            // needs decoding
        "w=0&h=64",                         // a bad parameter: the router's 400 names it
    ])
    func whatItCannotAnswerAtOnceGoesToTheRouterWhole(query: String) async throws {
        let fixture = try await Fixture()
        let channel = try fixture.channel()
        try send(fixture.path(query), to: channel, from: fixture)
        #expect(try written(channel).isEmpty)
        let parts = try forwarded(channel)
        try #require(parts.count == 2)
        guard case .head(let head) = parts[0], case .end = parts[1] else { Issue.record("expected head and end; got \(parts)"); return }
        #expect(head.uri == fixture.path(query))
    }

    @Test func requestsOutsideItsRemitGoToTheRouter() async throws {
        let fixture = try await Fixture()
        let query = "w=64&h=64&mode=fill"
        var cases: [(String, HTTPMethod, HTTPVersion, HTTPHeaders)] = [
            (fixture.path(query, token: "wrong-token"), .GET, .http1_1, [:]),
            (fixture.path(query, asset: UUID().uuidString), .GET, .http1_1, [:]),
            (fixture.path(query, asset: "..%2F..%2Fetc%2Fpasswd"), .GET, .http1_1, [:]),
            (fixture.path(query), .HEAD, .http1_1, [:]),
            (fixture.path(query), .GET, .http1_1, ["Connection": "close"]),
            (fixture.path(query), .GET, .http1_0, [:]),
            (fixture.path(query).replacingOccurrences(of: "/image?", with: "/original?"), .GET, .http1_1, [:]),
        ]
        // Without the person's cookie, or with one that is not a signed-in browser's, the router refuses.
        cases.append((fixture.path(query), .GET, .http1_1, ["Cookie": "other=1"]))
        cases.append((fixture.path(query), .GET, .http1_1, ["Cookie": "\(fixture.state.personCookieName)=made.up"]))
        // A session that has ended answers 410 through the router.
        cases.append((fixture.path(query), .GET, .http1_1, [:]))
        for (index, (path, method, version, headers)) in cases.enumerated() {
            if index == cases.count - 1 {
                // Ended, as the store tells the router (or a notification this server's watchers).
                fixture.state.grants.remember(try await fixture.state.sessions.finish(fixture.session.id, token: fixture.session.pickerToken,
                                                                                      state: .cancelled))
            }
            let channel = try fixture.channel()
            let cookie = headers["Cookie"].first
            try send(path, method: method, version: version, headers: cookie == nil ? headers : [:], cookie: cookie, to: channel, from: fixture)
            #expect(try written(channel).isEmpty, "\(method) \(path) \(headers)")
            #expect(try forwarded(channel).count == 2, "\(method) \(path) \(headers)")
        }
    }

    @Test func whileAForwardedRequestIsUnansweredTheOnesBehindItAreForwardedToo() async throws {
        let fixture = try await Fixture()
        let channel = try fixture.channel()
        try send(fixture.path("w=128&h=128&mode=fill"), to: channel, from: fixture) // to be rendered by the router
        try send(fixture.path("w=64&h=64&mode=fill"), to: channel, from: fixture)   // remembered, but behind it
        #expect(try written(channel).isEmpty)
        #expect(try forwarded(channel).count == 4)
        // The router answers both, to their ends; then the fast path may answer again.
        for _ in 0..<2 { try answerAsTheRouter(channel, body: "later") }
        #expect(try written(channel) == String(repeating: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nlater", count: 2))
        try send(fixture.path("w=64&h=64&mode=fill"), to: channel, from: fixture)
        #expect(try forwarded(channel).isEmpty)
        #expect(try written(channel).hasPrefix("HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\n"))
    }

    /// The decoder is not paired with the encoder (the fast path writes below it), so the fast
    /// path keeps the router's answers to `HEAD` bodiless, as the pair would, in order with its own.
    @Test func theRoutersAnswersToHEADGoOutWithoutABodyAmongTheFastPathsAnswers() async throws {
        let fixture = try await Fixture()
        let channel = try fixture.channel()
        let remembered = fixture.path("w=64&h=64&mode=fill")
        try send(remembered, to: channel, from: fixture)
        let answer = try writtenBytes(channel)
        // A HEAD with a length, then one whose GET would be chunked, then a GET: all to the router.
        try send(remembered, method: .HEAD, to: channel, from: fixture)
        try send(fixture.path("w=128&h=128&mode=fill"), method: .HEAD, to: channel, from: fixture)
        try send(fixture.path("w=128&h=128&mode=fill"), to: channel, from: fixture)
        #expect(try forwarded(channel).count == 6)
        try channel.writeOutbound(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: ["Content-Length": "5"])))
        // Told on the embedded channel's loop, which is this thread; a lock keeps the compiler sure of it.
        let outcomes = Mutex<[String]>([])
        let refused = channel.eventLoop.makePromise(of: Void.self), ended = channel.eventLoop.makePromise(of: Void.self)
        refused.futureResult.whenComplete { result in outcomes.withLock { $0.append((try? result.get()) == nil ? "refused" : "written") } }
        ended.futureResult.whenComplete { result in outcomes.withLock { $0.append((try? result.get()) == nil ? "failed" : "ended") } }
        channel.write(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(string: "never"))), promise: refused)
        channel.writeAndFlush(HTTPServerResponsePart.end(nil), promise: ended)
        #expect(outcomes.withLock { $0 } == ["refused", "ended"])
        try channel.writeOutbound(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok)))
        try channel.writeOutbound(HTTPServerResponsePart.end(nil))
        try answerAsTheRouter(channel, body: "later")
        #expect(try written(channel) == "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n" + "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n"
            + "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nlater")
        // All answered: the fast path answers again, the same bytes as before.
        try send(remembered, to: channel, from: fixture)
        #expect(try forwarded(channel).isEmpty)
        #expect(withoutDate(try writtenBytes(channel)) == withoutDate(answer))
    }

    /// Counts the read completions that reach the handlers after the fast path.
    private final class ReadCompletions: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        var count = 0
        func channelReadComplete(context: ChannelHandlerContext) { count += 1 }
    }

    @Test func aReadWhosePartsAllStayedWithTheFastPathEndsThere() async throws {
        let fixture = try await Fixture()
        let completions = ReadCompletions()
        let channel = try fixture.channel()
        try channel.pipeline.syncOperations.addHandler(completions)
        // Each part written in completes a read of its own.
        try send(fixture.path("w=64&h=64&mode=fill"), to: channel, from: fixture)
        #expect(completions.count == 0)
        try send(fixture.path("w=128&h=128&mode=fill"), to: channel, from: fixture) // to the router
        #expect(completions.count == 2)
        channel.pipeline.fireChannelReadComplete() // a read with nothing in it
        #expect(completions.count == 2)
        #expect(try forwarded(channel).count == 2)
    }

    @Test func anAssetTheSessionMayNotShowIsNeverAnswered() async throws {
        let fixture = try await Fixture()
        let videosOnly = try await fixture.state.sessions.create(settings: PickerSessionSettings(maxItems: 5, mediaFilter: .video))
        fixture.state.grants.remember(videosOnly)
        let channel = try fixture.channel()
        try send("/picker/\(videosOnly.id)/\(videosOnly.pickerToken)/api/assets/\(fixture.asset.id.uuid.uuidString)/image?w=64&h=64&mode=fill",
                 to: channel, from: fixture)
        #expect(try written(channel).isEmpty)
        #expect(try forwarded(channel).count == 2)
    }

    @Test func eachRequestOnAConnectionIsCheckedAgainstItsOwnSessionAndToken() async throws {
        let fixture = try await Fixture()
        let other = try await fixture.state.sessions.create(settings: PickerSessionSettings(maxItems: 5))
        fixture.state.grants.remember(other)
        let channel = try fixture.channel()
        let query = "w=64&h=64&mode=fill"
        let otherPath = "/picker/\(other.id)/\(other.pickerToken)/api/assets/\(fixture.asset.id.uuid.uuidString)/image?\(query)"
        // The second session never listed the asset through its own page, yet may show it: answered too.
        for (path, answered) in [(fixture.path(query), true), (fixture.path(query, token: "wrong-token"), false), (fixture.path(query), true),
                                 ("/picker/\(other.id)/\(fixture.session.pickerToken)/api/assets/\(fixture.asset.id.uuid.uuidString)/image?\(query)", false),
                                 (otherPath, true), (fixture.path(query, token: other.pickerToken), false)] {
            try send(path, to: channel, from: fixture)
            #expect(try written(channel).hasPrefix("HTTP/1.1 200 OK") == answered, "\(path)")
            #expect(try forwarded(channel).count == (answered ? 0 : 2), "\(path)")
            for _ in 0..<(answered ? 0 : 1) { // the router's answer, so that the fast path may answer again
                try answerAsTheRouter(channel, status: .forbidden)
                _ = try written(channel)
            }
        }
    }

    @Test func aSessionTheRouterHasNotLetInLatelyIsLeftToTheRouter() async throws {
        let clock = TestClock()
        let fixture = try await Fixture(grants: SessionGrants(now: { clock.now }))
        let query = "w=64&h=64&mode=fill"
        let unconfirmed = try await fixture.state.sessions.create(settings: PickerSessionSettings(maxItems: 5))
        let unconfirmedPath = "/picker/\(unconfirmed.id)/\(unconfirmed.pickerToken)/api/assets/\(fixture.asset.id.uuid.uuidString)/image?\(query)"
        // Answered while the grant is fresh; once it is a time to live old, the store is asked again (through the router).
        for (path, advance, answered) in [(fixture.path(query), 0.0, true), (unconfirmedPath, 0, false),
                                          (fixture.path(query), SessionGrants.timeToLive, false)] {
            clock.advance(advance)
            let channel = try fixture.channel()
            try send(path, to: channel, from: fixture)
            #expect(try written(channel).hasPrefix("HTTP/1.1 200 OK") == answered, "\(path)")
            #expect(try forwarded(channel).count == (answered ? 0 : 2), "\(path)")
        }
    }

    @Test func targetsAreReadWithoutDecoding() throws {
        let id = "0A1B2C3D-4E5F-6071-8293-A4B5C6D7E8F9"
        let target = try #require(PickerImageTarget("/picker/s1/t1/api/assets/\(id)/image?w=1&h=2&mode=fill"))
        #expect(target.session == "s1")
        #expect(target.token == "t1")
        #expect(target.asset == UUID(uuidString: id))
        #expect(PickerImageTarget("/picker/s1/t1/api/assets/\(id.lowercased())/image")?.asset == UUID(uuidString: id))
        #expect(target.value("h") == "2")
        #expect(target.value("quality") == nil)
        #expect(PickerImageTarget("/picker/s1/t1/api/assets/\(id)/image")?.value("w") == nil)
        #expect(PickerImageTarget("/picker/s1/t1/api/assets/\(id)/image?w=1&&w=2&")?.value("w") == "1") // the first, as the router takes it
        for other in ["/picker/s1/t1/api/assets/\(id)/image/", "/picker//t1/api/assets/\(id)/image", "/picker/s1/t1/api/assets/\(id)/original",
                      "/ui/picker/s1/t1/api/assets/\(id)/image", "/picker/s1/t1/api/assets/\(id)/image?w=1+2", "/picker/s1/t1/api/assets/\(id)/image?w",
                      "/picker/s1/t1/api/assets/\(id.replacingOccurrences(of: "-", with: "_"))/image", "/picker/s1/t1/api/assets/{\(id)}/image",
                      "/picker/s1/t1/api/assets/\(id.dropLast())G/image", "/picker/s1/t1/api/assets/%30\(id.dropFirst())/image"] {
            #expect(PickerImageTarget(other) == nil, "\(other)")
        }
    }
}

/// The fast path in a running server, over real sockets: the same answers as the router's, in
/// order on a pipelined connection, and `Connection: close` still honoured.
@Suite struct RenditionFastPathHTTPTests {
    @Test func answersAreTheRoutersToTheByteAndInOrderWhenPipelined() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let person = server.picker(session)
        let photo = try #require(try await person.cameraRollIDs(media: "photo").first)
        let port = try #require(server.baseURL.port)
        let small = "\(session.pickerPath)api/assets/\(photo)/image?w=80&h=60&mode=fill"
        let large = "\(session.pickerPath)api/assets/\(photo)/image?w=48&h=48&mode=fill"
        // The first answer is rendered by the router, which remembers it.
        let first = try await person.get("assets/\(photo)/image?w=80&h=60&mode=fill")
        #expect(first.status == 200)
        let tag = try #require(first.header("ETag"))

        // Remembered (fast path), to be rendered (router), remembered again, then one the router
        // must answer because of its Connection header, which then closes the connection.
        let cookie = "Cookie: \(server.personCookie)"
        let (answers, closed) = await RawHTTPExchange.exchange(port: port, [
            (small, [cookie]), (large, [cookie]), (small, [cookie, "If-None-Match: \(tag)"]), (small, [cookie, "Connection: close"]),
        ], untilClosed: true)
        try #require(answers.count == 4)
        #expect(answers.map(\.status) == [200, 200, 304, 200])
        #expect(answers.map { $0.header("X-Image-Size") } == ["80x60", "48x48", nil, "80x60"])
        #expect(closed, "the server closed the connection after the Connection: close answer")
        // The fast path's answer and the router's (answers[3]) are the same bytes under the same headers.
        #expect(answers[0].body == Array(first.body))
        #expect(answers[0].body == answers[3].body)
        let routerHeaders = answers[3].headers.filter { $0.name != "date" && $0.name != "connection" }
        #expect(answers[0].headers.filter { $0.name != "date" }.map { "\($0.name): \($0.value)" } == routerHeaders.map { "\($0.name): \($0.value)" })
        #expect(answers[2].header("etag") == tag)

        // The router's 304 (forced by a Connection header) and the fast path's agree too.
        let (revalidations, _) = await RawHTTPExchange.exchange(port: port, [
            (small, [cookie, "If-None-Match: \(tag)"]), (small, [cookie, "If-None-Match: \(tag)", "Connection: keep-alive"]),
        ])
        try #require(revalidations.count == 2)
        #expect(revalidations[0].headers.filter { $0.name != "date" }.map { "\($0.name): \($0.value)" }
            == revalidations[1].headers.filter { $0.name != "date" && $0.name != "connection" }.map { "\($0.name): \($0.value)" })
    }
}
