import NIOHTTP1
import Synchronization

/// A prepared answer's head with the headers every response carries (`Date`, `Server`) added,
/// made again only when the date's text changes: a remembered rendition answered many times a
/// second is not given a fresh copy of its headers on each request.
final class StampedHead: Sendable {
    private let head: HTTPResponseHead
    private let stamped = Mutex<(date: String, head: HTTPResponseHead)?>(nil)

    init(_ head: HTTPResponseHead) {
        self.head = head
    }

    /// The head with `Date: date` and `Server: server` after its own headers.
    func head(date: String, server: String) -> HTTPResponseHead {
        if let made = stamped.withLock({ $0 }), made.date == date { return made.head }
        var head = head
        head.headers.add(name: "Date", value: date)
        head.headers.add(name: "Server", value: server)
        stamped.withLock { $0 = (date, head) }
        return head
    }
}
