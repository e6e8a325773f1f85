import NIOCore
import NIOHTTP1
import Synchronization

/// A prepared answer's head as it goes on the wire, with the headers every response carries
/// (``ServedHeaders``, `Date`, `Server`) after its own, as the router's middleware and
/// Hummingbird add them, made again only when the date's text changes: a remembered rendition
/// answered many times a second is not encoded afresh on each request.
final class StampedHead: Sendable {
    private let head: HTTPResponseHead
    private let stamped = Mutex<(date: String, bytes: ByteBuffer)?>(nil)

    init(_ head: HTTPResponseHead) {
        self.head = head
    }

    /// The head's bytes (status line, headers, `Date: date`, `Server: server`, the blank line),
    /// as SwiftNIO's HTTP/1 encoder writes them.
    func bytes(date: String, server: String) -> ByteBuffer {
        if let made = stamped.withLock({ $0 }), made.date == date { return made.bytes }
        var bytes = ByteBuffer()
        bytes.writeString("HTTP/\(head.version.major).\(head.version.minor) \(head.status.code) \(head.status.reasonPhrase)\r\n")
        for (name, value) in head.headers { bytes.writeString("\(name): \(value)\r\n") }
        bytes.writeString(ServedHeaders.lines)
        bytes.writeString("Date: \(date)\r\nServer: \(server)\r\n\r\n")
        stamped.withLock { $0 = (date, bytes) }
        return bytes
    }
}
