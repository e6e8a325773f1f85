import NIOCore
import Synchronization

/// Counts open connections, in all and per client address, and refuses one more than
/// ``PickerServerLimits/maximumConnections`` or ``PickerServerLimits/connectionsPerAddress``:
/// it is answered 503 in one line as soon as it is active and closed, by a handler in front of
/// HTTP decoding that reads nothing. The total keeps the server's open files within its limit
/// (``OpenFileLimit``): a flood of connections from many addresses is refused, never a crash.
final class ConnectionAdmission: Sendable {
    private let maximum: Int
    private let maximumPerAddress: Int
    private let open = Mutex(Counts())

    private struct Counts {
        var total = 0
        var perAddress: [String: Int] = [:]
    }

    init(maximum: Int, perAddress: Int) {
        self.maximum = maximum
        maximumPerAddress = perAddress
    }

    /// Takes a place for `channel`, given back when the channel closes.
    /// - Returns: `nil` when the connection may be served; else the handler to put first in its
    ///   pipeline, which answers 503 and closes it.
    func admit(_ channel: any Channel) -> Refusal? {
        let address = channel.remoteAddress?.ipAddress ?? "unknown"
        let refusal: String? = open.withLock { counts in
            guard counts.total < maximum else { return totalRefusal }
            guard counts.perAddress[address, default: 0] < maximumPerAddress else { return addressRefusal }
            counts.total += 1
            counts.perAddress[address, default: 0] += 1
            return nil
        }
        if let refusal { return Refusal(response: refusal) }
        channel.closeFuture.whenComplete { [self] _ in
            open.withLock { counts in
                counts.total -= 1
                counts.perAddress[address, default: 1] -= 1
                if counts.perAddress[address] == 0 { counts.perAddress[address] = nil }
            }
        }
        return nil
    }

    private var addressRefusal: String {
        Self.response(code: "tooManyConnections", "This address has \(maximumPerAddress) connections open to the server already; close some.")
    }

    private var totalRefusal: String {
        Self.response(code: "serverFull", "The server has \(maximum) connections open, as many as it takes; try again shortly.")
    }

    private static func response(code: String, _ message: String) -> String {
        let body = #"{"error":{"status":503,"code":"\#(code)","message":"\#(message)"}}"#
        return "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nConnection: close\r\nRetry-After: 1\r\n"
            + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
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
