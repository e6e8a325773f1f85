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
/// when a request's head or body is slow to arrive (``RequestDeadline``), 503 beyond the connections the
/// server or one address may hold (``ConnectionAdmission``). Its requests are answered knowing whether their
/// client is still there (``ClientDeparture``).
///
/// The pipeline is Hummingbird's (`HTTP1Channel`), but for one thing: SwiftNIO's request decoder
/// is not paired with its response encoder. Paired, the decoder records each request's method
/// in the encoder, which takes one off for each answer it encodes; the fast path writes its
/// answers below the encoder, so it keeps that record itself (``BodilessResponses``).
struct PickerHTTPChannel: HTTPChannelHandler {
    /// Hummingbird's connection, and whether its client has gone.
    struct Value: ServerChildChannelValue {
        let base: HTTP1Channel.Value
        let departure: ClientDeparture
        var channel: any Channel { base.channel }
    }

    let base: HTTP1Channel
    let limits: PickerServerLimits
    let connections: ConnectionAdmission
    /// Makes the fast path of one connection.
    let fastPath: @Sendable () -> RenditionFastPath

    var responder: Responder { base.responder }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let activity = ConnectionActivity()
        let refusal = connections.admit(channel, activity: activity)
        let departure = ClientDeparture()
        let configuration = base.configuration
        return channel.eventLoop.makeCompletedFuture {
            let pipeline = channel.pipeline.syncOperations
            if let refusal { try pipeline.addHandler(refusal) }
            let deadline = RequestDeadline(limits: limits, activity: activity)
            let fastPath = fastPath()
            fastPath.deadline = deadline
            var decoderLimits = NIOHTTPDecoderLimitConfiguration()
            decoderLimits.maxHeaderFieldSize = configuration.httpDecoder.maxHeaderFieldSize
            decoderLimits.maxHeaderListSize = configuration.httpDecoder.maxHeaderListSize
            decoderLimits.maxHeaderFieldCount = configuration.httpDecoder.maxHeaderFieldCount
            try pipeline.addHandlers([
                deadline.bytesHandler, ClientDepartureHandler(departure), HTTPResponseEncoder(),
                ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes, limitConfiguration: decoderLimits)),
                fastPath, HTTP1ToHTTPServerCodec(secure: false),
            ])
            try pipeline.addHandlers(configuration.additionalChannelHandlers())
            try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: configuration.idleTimeout.map { .init($0) }, logger: logger))
            let asyncChannel = try HTTP1Channel.Value(wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
            return Value(base: asyncChannel, departure: departure)
        }
    }

    func handle(value: Value, logger: Logger) async {
        await ClientAddress.$current.withValue(value.channel.remoteAddress?.ipAddress ?? "unknown") {
            await ClientDeparture.$current.withValue(value.departure) {
                await base.handle(value: value.base, logger: logger)
            }
        }
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 with the picker's fast path for warm thumbnails, held to `limits`.
    static func picker(limits: PickerServerLimits, fastPath: @escaping @Sendable () -> RenditionFastPath) -> HTTPServerBuilder {
        let maximum = limits.maximumConnections ?? OpenFileLimit.connections(files: OpenFileLimit.raise())
        let connections = ConnectionAdmission(maximum: maximum, perAddress: limits.connectionsPerAddress, proxies: limits.trustedProxies)
        let configuration = HTTP1Channel.Configuration(idleTimeout: .nanoseconds(Int64(limits.idleTimeout / .nanoseconds(1))))
        return HTTPServerBuilder { responder in
            PickerHTTPChannel(base: HTTP1Channel(responder: responder, configuration: configuration), limits: limits,
                              connections: connections, fastPath: fastPath)
        }
    }
}
