import NIOCore
import NIOHTTP1

/// A request must arrive in time, and a connection is not held for a body nobody will read.
///
/// - Its **head** must arrive whole within ``PickerServerLimits/headerTimeout`` of its first
///   byte (slowloris), else 408 `headerTimeout`.
/// - Its **body**, while the server waits for it, may pause at most
///   ``PickerServerLimits/bodyTimeout``, and must come at ``PickerServerLimits/minimumBodyRate``
///   bytes a second on average once that time has passed (each byte received buys
///   1/rate second more, as Apache's `RequestReadTimeout body=…,MinRate=…`), else 408
///   `bodyTimeout`. Only time the server spends waiting counts: while it reads no more
///   (its handlers have not taken what came), the clock stands still.
/// - An **answer that ends before its request's body has arrived** (a refusal, a 413 because
///   `Content-Length` is over the route's limit) ends the connection: the rest of the body would
///   only be read to be dropped.
///
/// Either way the connection closes lingering: the answer, then our side shut, then what the
/// client still sends read and dropped for a moment. A credential (the client key, the person's
/// cookie) thus holds a connection with a slow body for seconds, not forever.
///
/// The ``RequestDeadline/BytesHandler``, first in the pipeline, sees raw bytes arrive and the
/// server ask for more; ``RenditionFastPath``, right after HTTP/1 decoding, tells it of heads
/// decoded, requests ended and answers begun and ended (its own and the router's). Lives on the
/// connection's event loop, with one timer per connection, looked at when it fires; its time is
/// the loop's (`EventLoop.now`), so a test's embedded loop moves it.
final class RequestDeadline {
    private let headerTimeout: TimeAmount
    private let bodyTimeout: TimeAmount
    /// Bytes a second.
    private let minimumBodyRate: Int64
    /// Between a head and its request's end, the body is being waited for.
    private var awaitingHead = true
    /// When the first byte of the head waited for arrived; `nil` before it does.
    private var headStarted: NIODeadline?
    /// Responses not ended yet (pipelined requests are answered in order).
    private var pendingResponses = 0
    /// Whether the oldest pending response has begun to go out.
    private var answerBegun = false
    /// The body being waited for: what came of it, and how long the server waited on the client
    /// for it before the read under way (if any).
    private var bodyReceived: Int64 = 0
    private var bodyWaited = TimeAmount.zero
    /// Since when the server has asked for bytes and none came, in a body; `nil` when it has not asked.
    private var readRequested: NIODeadline?
    /// The one timer of the connection, and when it fires. It is not cancelled when what it
    /// waits for arrives in time: when it fires, it looks at what is awaited then, if anything,
    /// and waits on. So a busy keep-alive connection sets a timer every `headerTimeout`, not one per request.
    private var scheduled: (task: Scheduled<Void>, at: NIODeadline)?
    /// The connection's activity, told of every head and answer end.
    private let activity: ConnectionActivity
    /// The first handler's context: where closes and raw answers start.
    private var context: ChannelHandlerContext?

    init(limits: PickerServerLimits, activity: ConnectionActivity) {
        headerTimeout = .nanoseconds(Int64(limits.headerTimeout / .nanoseconds(1)))
        bodyTimeout = .nanoseconds(Int64(limits.bodyTimeout / .nanoseconds(1)))
        minimumBodyRate = Int64(max(1, limits.minimumBodyRate))
        self.activity = activity
    }

    /// The handler to place first in the pipeline.
    var bytesHandler: BytesHandler { BytesHandler(self) }

    /// Once the connection is closing (a raw answer sent, or an answer given before its body
    /// came), what arrives is dropped and nothing more is answered.
    private(set) var isClosing = false

    // MARK: Told by the fast path

    /// A request's head was decoded.
    func headArrived() {
        awaitingHead = false
        headStarted = nil
        pendingResponses += 1
        bodyReceived = 0
        bodyWaited = .zero
        activity.requestStarted()
    }

    /// A request ended: the next head is awaited.
    func requestEnded() {
        awaitingHead = true
        readRequested = nil
    }

    /// An answer's head is going out.
    func responseBegan() { answerBegun = true }

    /// An answer ended.
    /// - Returns: Whether the connection must close once it is sent: its request's body is
    ///   still arriving, and nothing will read it.
    func responseEnded() -> Bool {
        pendingResponses -= 1
        answerBegun = false
        activity.responseEnded()
        guard !awaitingHead, pendingResponses == 0, !isClosing else { return false }
        isClosing = true
        return true
    }

    /// Sends `answer` (``RawAnswer``) and closes, unless an answer is under way or due for a
    /// request that has ended (the router's to give; then it returns `false`).
    func answerAndClose(_ answer: String) -> Bool {
        guard let context, !isClosing, canAnswer else { return false }
        closeLingering(context, after: answer)
        return true
    }

    /// Closes the connection lingering, after the answer just written: called once that answer is sent.
    func closeAfterAnswer() {
        guard let context else { return }
        closeLingering(context, after: nil)
    }

    /// No answer is going out, and none is due but the one of a request whose body is awaited.
    private var canAnswer: Bool {
        pendingResponses == 0 || (pendingResponses == 1 && !awaitingHead && !answerBegun)
    }

    // MARK: Told by the bytes handler

    fileprivate func bytesArrived(_ count: Int, _ context: ChannelHandlerContext) {
        if awaitingHead {
            guard headStarted == nil else { return }
            let now = context.eventLoop.now
            headStarted = now
            schedule(at: now + headerTimeout, context)
        } else {
            bodyReceived += Int64(count)
            if let since = readRequested { bodyWaited = bodyWaited + (context.eventLoop.now - since) }
        }
        readRequested = nil
    }

    fileprivate func readAsked(_ context: ChannelHandlerContext) {
        guard !awaitingHead, readRequested == nil, !isClosing else { return }
        let now = context.eventLoop.now
        readRequested = now
        schedule(at: now + min(bodyTimeout, allowance - bodyWaited), context)
    }

    fileprivate func added(_ context: ChannelHandlerContext) { self.context = context }

    fileprivate func cancel() {
        scheduled?.task.cancel()
        scheduled = nil
        context = nil
    }

    /// How long the server may wait on the client for the body so far: the body timeout, and
    /// 1/rate second for each byte received.
    private var allowance: TimeAmount {
        bodyTimeout + .nanoseconds(bodyReceived * 1_000_000_000 / minimumBodyRate)
    }

    /// Makes the timer fire at `deadline` at the latest.
    private func schedule(at deadline: NIODeadline, _ context: ChannelHandlerContext) {
        if let scheduled {
            guard deadline < scheduled.at else { return }
            scheduled.task.cancel()
        }
        let loop = context.eventLoop.assumeIsolated()
        scheduled = (loop.scheduleTask(deadline: deadline) { [self] in check(context) }, deadline)
    }

    /// The timer fired: is what is awaited now late?
    private func check(_ context: ChannelHandlerContext) {
        scheduled = nil
        guard context.channel.isActive, !isClosing else { return }
        let now = context.eventLoop.now
        if awaitingHead {
            guard let started = headStarted else { return }
            guard started + headerTimeout <= now else { return schedule(at: started + headerTimeout, context) }
            expire(RawAnswer.headerTimeout, context)
        } else {
            guard let since = readRequested else { return } // the server is not reading: no clock runs
            let late = min(since + bodyTimeout, since + (allowance - bodyWaited))
            guard late <= now else { return schedule(at: late, context) }
            expire(RawAnswer.bodyTimeout, context)
        }
    }

    private func expire(_ answer: String, _ context: ChannelHandlerContext) {
        guard canAnswer else {
            isClosing = true
            context.close(promise: nil)
            return
        }
        closeLingering(context, after: answer)
    }

    /// Closing at once with the client's bytes unread would reset the connection, and a reset
    /// can take the answer with it before the client reads it.
    private func closeLingering(_ context: ChannelHandlerContext, after answer: String?) {
        isClosing = true
        let shut = {
            let isolated = context.eventLoop.assumeIsolated()
            context.close(mode: .output, promise: nil)
            isolated.scheduleTask(in: Self.linger) { context.close(promise: nil) }
        }
        guard let answer else { return shut() }
        context.writeAndFlush(NIOAny(context.channel.allocator.buffer(string: answer))).assumeIsolated().whenComplete { _ in shut() }
    }

    private static let linger = TimeAmount.seconds(2)

    /// First in the pipeline: a request's first bytes start the head's clock, the server's asking
    /// for more of a body starts the body's.
    final class BytesHandler: ChannelDuplexHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer
        typealias OutboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        private let deadline: RequestDeadline

        fileprivate init(_ deadline: RequestDeadline) { self.deadline = deadline }

        func handlerAdded(context: ChannelHandlerContext) {
            deadline.added(context)
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !deadline.isClosing else { return }
            deadline.bytesArrived(unwrapInboundIn(data).readableBytes, context)
            context.fireChannelRead(data)
        }

        func read(context: ChannelHandlerContext) {
            deadline.readAsked(context)
            context.read()
        }

        func channelInactive(context: ChannelHandlerContext) {
            deadline.cancel()
            context.fireChannelInactive()
        }
    }
}
