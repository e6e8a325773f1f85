import HTTPTypes
import Hummingbird

/// A response whose bytes are all at hand: what both Hummingbird's responders and the
/// event-loop fast path (``RenditionFastPath``) send, so that the two answer alike.
struct PreparedAnswer: Sendable {
    var head: HTTPResponse
    /// The body; `nil` for none (a 304, which must not claim a length of 0).
    var body: ByteBuffer?

    /// The answer as a Hummingbird response.
    var response: Response {
        guard let body else { return Response(status: head.status, headers: head.headerFields) }
        return Response(status: head.status, headers: head.headerFields, body: .init(byteBuffer: body))
    }
}
