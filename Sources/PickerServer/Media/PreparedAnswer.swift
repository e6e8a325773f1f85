import HTTPTypes
import Hummingbird
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// A response whose bytes are all at hand: what both Hummingbird's responders and the
/// event-loop fast path (``RenditionFastPath``) send, so that the two answer alike.
struct PreparedAnswer: Sendable {
    let head: HTTPResponse
    /// `head` as SwiftNIO's HTTP/1 encoder takes it, made once, with `Date` and `Server` as
    /// ``RenditionFastPath`` sends it.
    let wireHead: StampedHead
    /// The body; `nil` for none (a 304, which must not claim a length of 0).
    let body: ByteBuffer?

    init(head: HTTPResponse, body: ByteBuffer?) {
        self.head = head
        wireHead = StampedHead(HTTPResponseHead(head))
        self.body = body
    }

    /// The 304 that tells a client its copy tagged `tag` is current.
    static func notModified(tag: String, cacheControl: String) -> PreparedAnswer {
        PreparedAnswer(head: HTTPResponse(status: .notModified, headerFields: [.eTag: tag, .cacheControl: cacheControl]), body: nil)
    }

    /// The answer as a Hummingbird response.
    var response: Response {
        guard let body else { return Response(status: head.status, headers: head.headerFields) }
        return Response(status: head.status, headers: head.headerFields, body: .init(byteBuffer: body))
    }
}
