import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1.1 channel with a ``RenditionFastPath`` in each connection's pipeline,
/// right after HTTP/1 decoding and before the conversion to Swift HTTP Types that Hummingbird's
/// responders read: what the fast path answers costs neither that conversion nor the async hand-off.
struct PickerHTTPChannel: HTTPChannelHandler {
    let base: HTTP1Channel
    /// Makes the fast path of one connection.
    let fastPath: @Sendable () -> RenditionFastPath

    var responder: Responder { base.responder }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1Channel.Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(fastPath(), position: .before(try pipeline.handler(type: HTTP1ToHTTPServerCodec.self)))
            return value
        }
    }

    func handle(value: HTTP1Channel.Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 with the picker's fast path for warm thumbnails.
    static func picker(fastPath: @escaping @Sendable () -> RenditionFastPath) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in PickerHTTPChannel(base: HTTP1Channel(responder: responder), fastPath: fastPath) }
    }
}
