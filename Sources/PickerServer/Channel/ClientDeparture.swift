import NIOCore
import Synchronization

/// Whether the client of one connection has gone: it closed its side (a browser cancelling an
/// image it no longer needs closes the connection) or the connection broke.
///
/// Hummingbird does not cancel a route's task when its client leaves, so a render asked for by
/// a cell that scrolled away would be waited for to the end. ``ClientDepartureHandler``, first
/// in each connection's pipeline, tells this object; a route that does long work for the client
/// (``MediaResponder``'s renders) watches it and stops waiting at once. A client that only
/// half-closes (shuts its sending side, then reads) counts as gone too, as nginx counts it.
final class ClientDeparture: Sendable {
    private struct State {
        var hasLeft = false
        var watchers: [Int: @Sendable () -> Void] = [:]
        var nextWatcher = 0
    }

    private let state = Mutex(State())

    /// The departure of the connection whose request the current task answers; set around each
    /// connection's handling by ``PickerHTTPChannel``.
    @TaskLocal static var current: ClientDeparture?

    /// Calls `onLeave` once when the client goes (at once if it has gone already); `nil` then,
    /// else the watch to pass to ``unwatch(_:)``.
    func watch(_ onLeave: @escaping @Sendable () -> Void) -> Int? {
        let watcher: Int? = state.withLock { state in
            guard !state.hasLeft else { return nil }
            state.nextWatcher += 1
            state.watchers[state.nextWatcher] = onLeave
            return state.nextWatcher
        }
        if watcher == nil { onLeave() }
        return watcher
    }

    func unwatch(_ watcher: Int) {
        _ = state.withLock { $0.watchers.removeValue(forKey: watcher) }
    }

    /// The client went: every watcher is told, once.
    func clientLeft() {
        let watchers = state.withLock { state in
            state.hasLeft = true
            defer { state.watchers = [:] }
            return Array(state.watchers.values)
        }
        for watcher in watchers { watcher() }
    }
}

/// Tells a connection's ``ClientDeparture`` when the client closes its side or the connection
/// closes; passes everything on unchanged. First in the pipeline, so that no decoder in between
/// holds the news back.
final class ClientDepartureHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    let departure: ClientDeparture

    init(_ departure: ClientDeparture) {
        self.departure = departure
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed? = event as? ChannelEvent { departure.clientLeft() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        departure.clientLeft()
        context.fireChannelInactive()
    }
}
