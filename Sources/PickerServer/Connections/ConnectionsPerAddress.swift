import NIOCore
import Synchronization

/// Counts each client address's open connections and refuses one more than
/// ``PickerServerLimits/connectionsPerAddress``: it is answered 503 in one line as soon as it
/// is active and closed, by a handler in front of HTTP decoding that reads nothing.
final class ConnectionsPerAddress: Sendable {
    private let maximum: Int
    private let open = Mutex<[String: Int]>([:])

    init(maximum: Int) { self.maximum = maximum }

    /// Takes a place for `channel`'s address, given back when the channel closes.
    /// - Returns: `nil` when the connection may be served; else the handler to put first in its
    ///   pipeline, which answers 503 and closes it.
    func admit(_ channel: any Channel) -> Refusal? {
        let address = channel.remoteAddress?.ipAddress ?? "unknown"
        let admitted = open.withLock { counts in
            guard counts[address, default: 0] < maximum else { return false }
            counts[address, default: 0] += 1
            return true
        }
        guard admitted else { return Refusal(response: response) }
        channel.closeFuture.whenComplete { [self] _ in
            open.withLock { counts in
                counts[address, default: 1] -= 1
                if counts[address] == 0 { counts[address] = nil }
            }
        }
        return nil
    }

    private var response: String {
        let message = #"{"error":{"status":503,"code":"tooManyConnections","message":"This address has \#(maximum) connections open to the server already; close some."}}"#
        return "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nConnection: close\r\nRetry-After: 1\r\n"
            + "Content-Length: \(message.utf8.count)\r\n\r\n" + message
    }

    /// Answers a refused connection once it is active, then closes it; what it sends is never read.
    /// It holds nothing mutable, so it may be made off the channel's event loop and handed to it.
    final class Refusal: ChannelInboundHandler, RemovableChannelHandler, Sendable {
        typealias InboundIn = ByteBuffer
        private let response: String

        fileprivate init(response: String) { self.response = response }

        func channelActive(context: ChannelHandlerContext) {
            context.writeAndFlush(NIOAny(context.channel.allocator.buffer(string: response))).assumeIsolated()
                .whenComplete { _ in context.close(promise: nil) }
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
    }
}
