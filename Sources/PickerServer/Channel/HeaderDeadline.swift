import NIOCore
import NIOHTTP1

/// A request head must arrive whole within ``PickerServerLimits/headerTimeout`` of its first
/// byte; else the connection is answered 408 (or, with a response still going out, just
/// closed). A client that trickles a header a byte at a time (slowloris) thus holds a
/// connection for seconds, not forever. The ``HeaderDeadline/BytesHandler``, first in the
/// pipeline, sees raw bytes arrive; ``RenditionFastPath``, right after HTTP/1 decoding, tells it
/// of heads decoded, requests ended and answers ended (its own and the router's). Lives on the
/// connection's event loop.
final class HeaderDeadline {
    private let timeout: TimeAmount
    /// No head is being waited for between a head and its request's end.
    private var awaitingHead = true
    /// When the first byte of the head waited for arrived; `nil` before it does.
    private var headStarted: NIODeadline?
    /// Responses not ended yet (pipelined requests are answered in order).
    private var pendingResponses = 0
    /// The one timer of the connection. It is not cancelled when a head arrives in time: when it
    /// fires, it looks at the head awaited then, if any, and waits on for it. So a busy keep-alive
    /// connection sets a timer every `timeout`, not one per request.
    private var scheduled: Scheduled<Void>?
    /// The connection's activity, told of every head and answer end.
    private let activity: ConnectionActivity

    init(timeout: Duration, activity: ConnectionActivity) {
        self.timeout = .nanoseconds(Int64(timeout / .nanoseconds(1)))
        self.activity = activity
    }

    /// The handler to place first in the pipeline.
    var bytesHandler: BytesHandler { BytesHandler(self) }

    fileprivate func bytesArrived(_ context: ChannelHandlerContext) {
        guard awaitingHead, headStarted == nil else { return }
        let now = NIODeadline.now()
        headStarted = now
        if scheduled == nil { schedule(at: now + timeout, context) }
    }

    /// A request's head was decoded.
    func headArrived() {
        awaitingHead = false
        headStarted = nil
        pendingResponses += 1
        activity.requestStarted()
    }

    /// A request ended: the next head is awaited.
    func requestEnded() { awaitingHead = true }

    /// An answer ended.
    func responseEnded() {
        pendingResponses -= 1
        activity.responseEnded()
    }

    fileprivate func cancel() {
        scheduled?.cancel()
        scheduled = nil
    }

    private func schedule(at deadline: NIODeadline, _ context: ChannelHandlerContext) {
        let loop = context.eventLoop.assumeIsolated()
        scheduled = loop.scheduleTask(deadline: deadline) { [self] in check(context) }
    }

    /// The timer fired: the head awaited now, if its first byte came `timeout` ago, is late.
    private func check(_ context: ChannelHandlerContext) {
        scheduled = nil
        guard awaitingHead, let started = headStarted, context.channel.isActive else { return }
        let deadline = started + timeout
        guard deadline <= .now() else {
            schedule(at: deadline, context)
            return
        }
        expire(context)
    }

    private func expire(_ context: ChannelHandlerContext) {
        guard pendingResponses == 0 else {
            context.close(promise: nil)
            return
        }
        // A lingering close: the answer, then our side shut, then what the client still sends
        // read and dropped for a moment. Closing at once with its bytes unread would reset the
        // connection, and a reset can take the 408 with it before the client reads it.
        expired = true
        context.writeAndFlush(NIOAny(context.channel.allocator.buffer(string: Self.timeoutResponse))).assumeIsolated()
            .whenComplete { _ in
                context.close(mode: .output, promise: nil)
                context.eventLoop.assumeIsolated().scheduleTask(in: Self.linger) { context.close(promise: nil) }
            }
    }

    /// Once the 408 is sent, what arrives is dropped.
    fileprivate private(set) var expired = false
    private static let linger = TimeAmount.seconds(2)

    private static let timeoutMessage = #"{"error":{"status":408,"code":"headerTimeout","message":"The request's headers took too long to arrive."}}"#
    private static let timeoutResponse = "HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json\r\nConnection: close\r\n"
        + "Content-Length: \(timeoutMessage.utf8.count)\r\n\r\n" + timeoutMessage

    /// First in the pipeline: a request's first bytes start the clock.
    final class BytesHandler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer
        private let deadline: HeaderDeadline

        fileprivate init(_ deadline: HeaderDeadline) { self.deadline = deadline }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !deadline.expired else { return }
            deadline.bytesArrived(context)
            context.fireChannelRead(data)
        }

        func channelInactive(context: ChannelHandlerContext) {
            deadline.cancel()
            context.fireChannelInactive()
        }
    }
}
