import NIOCore
import Synchronization

/// Counts open connections, in all and per client address, and holds them to
/// ``PickerServerLimits/maximumConnections`` and ``PickerServerLimits/connectionsPerAddress``.
///
/// At a limit, a new connection takes the place of an idle one (no request being served; the
/// one whose last answer ended longest ago): that one is closed. Only when every connection in
/// the way is serving a request is the new one refused, answered 503 in one line as soon as it
/// is active and closed, by a handler in front of HTTP decoding that reads nothing. So sockets
/// held open without a request (everyone on loopback shares 127.0.0.1) cannot lock the person
/// or the client out, and the total keeps the server's open files within its limit
/// (``OpenFileLimit``): a flood of connections from many addresses is refused, never a crash.
/// A trusted proxy's connections count in the total only (``PickerServerLimits/trustedProxies``).
final class ConnectionAdmission: Sendable {
    private let maximum: Int
    private let maximumPerAddress: Int
    private let proxies: Set<String>
    private let open = Mutex(Connections())

    /// One admitted connection.
    private struct Admitted {
        let channel: any Channel
        let activity: ConnectionActivity
    }

    private struct Connections {
        var total = 0
        var byAddress: [String: [ObjectIdentifier: Admitted]] = [:]

        /// The idle connection among `candidates` whose last answer ended longest ago.
        static func oldestIdle(in candidates: some Sequence<(key: ObjectIdentifier, value: Admitted)>) -> ObjectIdentifier? {
            candidates.filter { $0.value.activity.isIdle }.min { $0.value.activity.lastActiveTime < $1.value.activity.lastActiveTime }?.key
        }

        mutating func remove(_ id: ObjectIdentifier, at address: String) -> Admitted? {
            guard let admitted = byAddress[address]?.removeValue(forKey: id) else { return nil }
            if byAddress[address]?.isEmpty == true { byAddress[address] = nil }
            total -= 1
            return admitted
        }
    }

    init(maximum: Int, perAddress: Int, proxies: Set<String> = []) {
        self.maximum = maximum
        maximumPerAddress = perAddress
        self.proxies = proxies
    }

    /// Takes a place for `channel`, whose activity `activity` tells, given back when it closes;
    /// at a limit, an idle connection's place (that one is closed).
    /// - Returns: `nil` when the connection may be served; else the handler to put first in its
    ///   pipeline, which answers 503 and closes it.
    func admit(_ channel: any Channel, activity: ConnectionActivity) -> Refusal? {
        let address = channel.remoteAddress?.ipAddress ?? "unknown"
        let id = ObjectIdentifier(channel)
        let (refusal, evicted): (String?, Admitted?) = open.withLock { connections in
            var evicted: Admitted?
            if !proxies.contains(address), connections.byAddress[address, default: [:]].count >= maximumPerAddress {
                guard let idle = Connections.oldestIdle(in: connections.byAddress[address, default: [:]]) else { return (addressRefusal, nil) }
                evicted = connections.remove(idle, at: address)
            } else if connections.total >= maximum {
                let all = connections.byAddress.lazy.flatMap { address, admitted in admitted.map { (address, $0.key, $0.value) } }
                guard let idle = all.filter({ $0.2.activity.isIdle }).min(by: { $0.2.activity.lastActiveTime < $1.2.activity.lastActiveTime })
                else { return (totalRefusal, nil) }
                evicted = connections.remove(idle.1, at: idle.0)
            }
            connections.byAddress[address, default: [:]][id] = Admitted(channel: channel, activity: activity)
            connections.total += 1
            return (nil, evicted)
        }
        if let refusal { return Refusal(response: refusal) }
        evicted?.channel.close(promise: nil)
        channel.closeFuture.whenComplete { [self] _ in
            _ = open.withLock { $0.remove(id, at: address) }
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
        RawAnswer.bytes(status: "503 Service Unavailable", code: code, message, headers: "Retry-After: 1\r\n")
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
