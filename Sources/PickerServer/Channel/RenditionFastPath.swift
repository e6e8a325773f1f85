import AssetsKit
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1
import PickerSessions

/// Answers the picker page's warm thumbnails on the connection's event loop, before the request
/// reaches Hummingbird's async responders.
///
/// A grid that is opened again or scrolled back asks for renditions the server has just sent;
/// answering those from ``RenditionMemo`` costs far less than carrying the request through the
/// conversion to Swift HTTP Types, the async channel, a task and the router. So this handler,
/// placed in each connection's pipeline right after HTTP/1 decoding (``PickerHTTPChannel``),
/// answers a `GET …/api/assets/{id}/image` itself when everything it needs is at hand without
/// waiting: the person's signed-in browser (asked of the server's one ``AccessGate``), a live session with that token
/// that the router let a request into lately (``SessionGrants``: the session store may be a
/// database, which the event loop must not wait for), an asset the session may show that the page listed
/// lately (``AssetMemo``), a valid query, and a remembered final rendition (or a current
/// `If-None-Match`). The checks and the answer are the route's own (``PickerPageRoutes``,
/// ``MediaResponder/answerWithoutRendering(of:query:ifNoneMatch:)``), so the bytes and headers
/// are the same. Anything else — another path or method, a miss, an error to report,
/// `Connection` handling, HTTP/1.0 — goes on to Hummingbird unchanged.
///
/// A client may send requests before the earlier ones are answered (HTTP/1.1 pipelining), and
/// answers must go out in the order of the requests: while a request passed on to Hummingbird
/// has not been answered to its end, the ones behind it are passed on too.
///
/// Its answers are bytes made once a second (``StampedHead``) and the remembered body, written
/// below SwiftNIO's HTTP/1 encoder with one flush: nothing is encoded per request. So the
/// decoder is not paired with the encoder (``PickerHTTPChannel``), and this handler, which sees
/// every request and every answer, keeps what the pair kept: `HEAD` answers bodiless
/// (``BodilessResponses``), and the connection's ``RequestDeadline`` told of heads, request
/// ends and answer beginnings and ends. What SwiftNIO's decoder cannot read as HTTP is answered
/// here too, with one line of JSON (``RawAnswer/malformed``), when no answer is under way.
final class RenditionFastPath: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private enum Phase {
        /// Between requests.
        case idle
        /// The request's head was answerable; the answer goes out at its end.
        case answering(PreparedAnswer)
        /// The request goes on to Hummingbird, every part of it.
        case forwarding
    }

    private let state: ServerState
    private let serverName: String
    /// The connection's request deadline, told of heads and ends; `nil` for none.
    var deadline: RequestDeadline?
    private var phase = Phase.idle
    /// Requests passed on whose answers have not ended yet.
    private var unansweredForwards = 0
    /// Whether a part went on since the last read completed: if none did, the handlers after
    /// this one have nothing to act on, and the read's completion stops here.
    private var forwardedSinceReadComplete = false
    private var bodiless = BodilessResponses()
    /// The HTTP/1 encoder's place in the pipeline: the answers are written from there, below it.
    private var encoder: ChannelHandlerContext?
    private var date = HTTPDate()
    /// The session id and picker token of the connection's last thumbnail request, kept to be reused.
    private var sessionID = "", sessionToken = ""
    /// The person's cookie name: the server's port is known before any connection is accepted.
    private lazy var cookieName = state.personCookieName
    /// The server's access decision.
    private let access: AccessGate

    init(state: ServerState, serverName: String) {
        self.state = state
        self.serverName = serverName
        access = state.access
    }

    func handlerAdded(context: ChannelHandlerContext) {
        encoder = try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch (unwrapInboundIn(data), phase) {
        case (.head(let request), _):
            deadline?.headArrived()
            if unansweredForwards == 0, let answer = answer(to: request) {
                phase = .answering(answer)
            } else {
                phase = .forwarding
                unansweredForwards += 1
                bodiless.requested(request.method)
                forward(data, context: context)
            }
        case (.body, .answering):
            break // a GET's body means nothing; Hummingbird drops it too
        case (.end, .answering(let answer)):
            phase = .idle
            deadline?.requestEnded()
            send(answer, context: context)
        case (.end, _):
            phase = .idle
            deadline?.requestEnded()
            forward(data, context: context)
        case (.body, _):
            forward(data, context: context)
        }
    }

    private func forward(_ data: NIOAny, context: ChannelHandlerContext) {
        forwardedSinceReadComplete = true
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        guard forwardedSinceReadComplete else { return }
        forwardedSinceReadComplete = false
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // After a raw answer (a 408 for a stalled body), nothing more goes out.
        if let deadline, deadline.isClosing {
            promise?.fail(ChannelError.outputClosed)
            return
        }
        let part = unwrapOutboundIn(data)
        var promise = promise
        switch part {
        case .head:
            deadline?.responseBegan()
        case .end:
            unansweredForwards -= 1
            if let deadline, deadline.responseEnded() {
                // Answered before its body came (a refusal, a 413): the connection ends once this is sent.
                let sent = context.eventLoop.makePromise(of: Void.self)
                sent.futureResult.assumeIsolated().whenComplete { _ in deadline.closeAfterAnswer() }
                if let promise { sent.futureResult.cascade(to: promise) }
                promise = sent
            }
        case .body:
            break
        }
        switch bodiless.verdict(on: part) {
        case .pass: context.write(data, promise: promise)
        case .refuse: promise?.fail(BodilessResponses.BodyNotAllowed())
        case .endWithoutTerminator: context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer()))), promise: promise)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // The decoder's refusal, answered in the APIs' form rather than Hummingbird's empty 400.
        if error is HTTPParserError, let deadline, deadline.answerAndClose(RawAnswer.malformed) { return }
        context.fireErrorCaught(error)
    }

    /// The answer the router would give, when it needs no waiting; `nil` to let the router answer.
    private func answer(to request: HTTPRequestHead) -> PreparedAnswer? {
        guard request.method == .GET, request.version == .http1_1, let target = PickerImageTarget(request.uri) else { return nil }
        let headers = FastPathHeaders(request.headers, cookieName: cookieName)
        guard !headers.hasConnection, case .pass = access.decide(AccessRequest(pickerAPIReadWith: headers.personToken)),
              let filter = state.grants.filter(Self.text(target.session, reusing: &sessionID),
                                               token: Self.text(target.token, reusing: &sessionToken)),
              let asset = state.assets.asset(target.asset), ServerState.isVisible(asset, filter: filter),
              let request = try? ImageRequest(allowsDelivery: true, priority: .visibleFirst, value: target.value) else { return nil }
        return state.media.answerWithoutRendering(of: asset, request: request, ifNoneMatch: headers.ifNoneMatch)
    }

    /// `text` as a string: `known` when it has the same bytes (a connection's requests name the
    /// same session again and again), else a new one, which becomes `known`.
    private static func text(_ text: Substring, reusing known: inout String) -> String {
        var text = text
        let same = text.withUTF8 { new in known.withUTF8 { new.hasSameBytes(as: $0) } }
        if !same { known = String(text) }
        return known
    }

    /// Writes `answer` with the headers Hummingbird adds to every response (`Date`, `Server`),
    /// head and body flushed together, below the encoder.
    private func send(_ answer: PreparedAnswer, context: ChannelHandlerContext) {
        guard let encoder else { return context.close(promise: nil) } // never: the channel has an encoder
        let head = answer.wireHead.bytes(date: date.now(), server: serverName)
        if let body = answer.body, body.readableBytes > 0 {
            encoder.write(NIOAny(IOData.byteBuffer(head)), promise: nil)
            encoder.writeAndFlush(NIOAny(IOData.byteBuffer(body)), promise: nil)
        } else {
            encoder.writeAndFlush(NIOAny(IOData.byteBuffer(head)), promise: nil)
        }
        _ = deadline?.responseEnded() // its request has ended: nothing is left to read
    }
}
