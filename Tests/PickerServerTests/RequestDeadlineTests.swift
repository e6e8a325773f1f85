import NIOCore
import NIOEmbedded
import NIOHTTP1
@testable import PickerServer
import Testing

/// A request's head and body must arrive in time, on an embedded event loop whose clock the test
/// moves: a body that pauses longer than the body timeout, or trickles slower than the minimum
/// rate, is answered 408; the time the server does not read is not the client's; an answer given
/// before its body came ends the connection.
@Suite struct RequestDeadlineTests {
    /// What the fast path tells the deadline, and nothing else: heads and request ends.
    private final class Reporter: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        let deadline: RequestDeadline
        init(_ deadline: RequestDeadline) { self.deadline = deadline }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head: deadline.headArrived()
            case .body: break
            case .end: deadline.requestEnded()
            }
        }
    }

    /// A connection with a body timeout of 10 s and a minimum rate of 1,024 bytes a second.
    private static func connection() throws -> (channel: EmbeddedChannel, deadline: RequestDeadline) {
        var limits = PickerServerLimits()
        limits.bodyTimeout = .seconds(10)
        limits.minimumBodyRate = 1_024
        let deadline = RequestDeadline(limits: limits, activity: ConnectionActivity())
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandlers([
            deadline.bytesHandler, ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)), Reporter(deadline),
        ])
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return (channel, deadline)
    }

    private static func send(_ text: String, to channel: EmbeddedChannel) throws {
        try channel.writeInbound(channel.allocator.buffer(string: text))
    }

    /// What the connection wrote, as text.
    private static func written(_ channel: EmbeddedChannel) throws -> String {
        var text = ""
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) { text += String(buffer: buffer) }
        return text
    }

    private static let head = "POST /v1/sessions HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n"

    @Test("a body that stops arriving while the server waits for it is answered 408 after the body timeout, and the connection closes")
    func stalledBody() throws {
        let (channel, _) = try Self.connection()
        try Self.send(Self.head + "{", to: channel)
        channel.read() // the server asks for more
        channel.embeddedEventLoop.advanceTime(by: .seconds(9))
        #expect(try Self.written(channel).isEmpty)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        let answer = try Self.written(channel)
        #expect(answer.hasPrefix("HTTP/1.1 408 "), "\(answer)")
        #expect(answer.contains(#""code":"bodyTimeout""#))
        #expect(answer.contains("X-Content-Type-Options: nosniff\r\n"))
        #expect(!channel.isActive)
    }

    /// The outside attack's F1: one byte every 40 s held a connection for good.
    @Test("a body trickled a byte at a time, each within the body timeout, is answered 408 once it falls below the minimum rate")
    func trickledBody() throws {
        let (channel, _) = try Self.connection()
        try Self.send(Self.head + "{", to: channel)
        channel.read()
        channel.embeddedEventLoop.advanceTime(by: .seconds(9))
        try Self.send(" ", to: channel)
        channel.read()
        #expect(try Self.written(channel).isEmpty)
        // 9 s waited already, 2 bytes bought 2 ms: the allowance of 10 s runs out a second later.
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1_100))
        #expect(try Self.written(channel).hasPrefix("HTTP/1.1 408 "))
        #expect(!channel.isActive)
    }

    @Test("a slow body above the minimum rate is taken whole, however long it takes")
    func slowButSteadyBody() throws {
        let (channel, deadline) = try Self.connection()
        try Self.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 40960\r\n\r\n", to: channel)
        for _ in 0..<20 { // 2 KiB every 1.5 s: 1,365 bytes a second, for 30 s
            channel.read()
            channel.embeddedEventLoop.advanceTime(by: .milliseconds(1_500))
            try Self.send(String(repeating: "a", count: 2_048), to: channel)
        }
        #expect(try Self.written(channel).isEmpty)
        #expect(channel.isActive)
        #expect(deadline.responseEnded() == false) // its request has ended: nothing is left unread
    }

    @Test("while the server reads no more of a body (its handlers have not taken what came), the clock stands still")
    func serverNotReading() throws {
        let (channel, _) = try Self.connection()
        try Self.send(Self.head + "{", to: channel)
        channel.embeddedEventLoop.advanceTime(by: .seconds(60))
        #expect(try Self.written(channel).isEmpty)
        channel.read()
        channel.embeddedEventLoop.advanceTime(by: .seconds(10))
        #expect(try Self.written(channel).hasPrefix("HTTP/1.1 408 "))
    }

    @Test("an answer that ends before its request's body came closes the connection, and what arrives after is dropped")
    func answerBeforeTheBody() throws {
        let (channel, deadline) = try Self.connection()
        try Self.send("POST /v1/sessions HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999\r\n\r\n{}", to: channel)
        #expect(deadline.responseEnded()) // a 413, say: the connection ends once it is sent
        deadline.closeAfterAnswer()
        #expect(!channel.isActive)
    }

    @Test("a whole request and its answer leave the connection open for the next")
    func wholeRequest() throws {
        let (channel, deadline) = try Self.connection()
        try Self.send("POST /v1/sessions HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}", to: channel)
        channel.read()
        #expect(deadline.responseEnded() == false)
        channel.embeddedEventLoop.advanceTime(by: .seconds(120))
        #expect(try Self.written(channel).isEmpty)
        #expect(channel.isActive)
    }
}
