import NIOCore
import Synchronization

/// Whether a connection is serving a request, and when it last finished one: what
/// ``ConnectionAdmission`` reads to choose a connection to close for a new one. Written on the
/// connection's event loop (``RequestDeadline``, told by the fast path), read from any.
final class ConnectionActivity: Sendable {
    /// Requests whose answers have not ended.
    private let serving = Atomic<Int>(0)
    /// When the connection opened or last ended an answer, in uptime nanoseconds.
    private let lastActive = Atomic<UInt64>(NIODeadline.now().uptimeNanoseconds)

    /// A request's head arrived: it is being served.
    func requestStarted() {
        serving.add(1, ordering: .relaxed)
    }

    /// An answer ended.
    func responseEnded() {
        serving.subtract(1, ordering: .relaxed)
        lastActive.store(NIODeadline.now().uptimeNanoseconds, ordering: .relaxed)
    }

    /// Whether no request is being served (the connection is idle, or a head is still arriving).
    var isIdle: Bool { serving.load(ordering: .relaxed) <= 0 }

    /// When it last ended an answer (or opened), in uptime nanoseconds.
    var lastActiveTime: UInt64 { lastActive.load(ordering: .relaxed) }
}
