import Synchronization

/// The port the server really listens on (it may have asked for 0), set once it is bound.
final class BoundAddress: Sendable {
    private let port = Mutex<Int?>(nil)

    func set(port value: Int) {
        port.withLock { $0 = value }
    }

    var boundPort: Int? { port.withLock { $0 } }

    func hostAndPort(fallbackHost host: String) -> String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(shownHost):\(boundPort ?? 0)"
    }
}
