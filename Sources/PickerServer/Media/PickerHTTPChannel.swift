import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1.1 channel with a ``RenditionFastPath`` in each connection's pipeline,
/// right after HTTP/1 decoding and before the conversion to Swift HTTP Types that Hummingbird's
/// responders read: what the fast path answers costs neither that conversion nor the async hand-off.
/// Each connection is also held to the server's ``PickerServerLimits``: closed when idle, 408
/// when a request head is slow to arrive (``HeaderDeadline``), 503 beyond the connections one
/// address may hold (``ConnectionsPerAddress``).
struct PickerHTTPChannel: HTTPChannelHandler {
    let base: HTTP1Channel
    let limits: PickerServerLimits
    let connections: ConnectionsPerAddress
    /// Makes the fast path of one connection.
    let fastPath: @Sendable () -> RenditionFastPath

    var responder: Responder { base.responder }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1Channel.Value> {
        let refusal = connections.admit(channel)
        return base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            if let refusal {
                try pipeline.addHandler(refusal, position: .first)
                return value
            }
            let deadline = HeaderDeadline(timeout: limits.headerTimeout).handlers
            try pipeline.addHandler(deadline.bytes, position: .first)
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(deadline.parts, position: .after(decoder))
            try pipeline.addHandler(fastPath(), position: .before(try pipeline.handler(type: HTTP1ToHTTPServerCodec.self)))
            return value
        }
    }

    func handle(value: HTTP1Channel.Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 with the picker's fast path for warm thumbnails, held to `limits`.
    static func picker(limits: PickerServerLimits, fastPath: @escaping @Sendable () -> RenditionFastPath) -> HTTPServerBuilder {
        let connections = ConnectionsPerAddress(maximum: limits.connectionsPerAddress)
        let configuration = HTTP1Channel.Configuration(idleTimeout: .nanoseconds(Int64(limits.idleTimeout / .nanoseconds(1))))
        return HTTPServerBuilder { responder in
            PickerHTTPChannel(base: HTTP1Channel(responder: responder, configuration: configuration), limits: limits,
                              connections: connections, fastPath: fastPath)
        }
    }
}
