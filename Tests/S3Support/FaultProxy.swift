import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A TCP proxy on loopback between a client and a server that makes faults happen for real:
/// an answer cut off after some bytes (the connection closed), or an answer that only flows as
/// fast as the test grants bytes (a slow endpoint, deterministic).
///
/// Each new connection takes the next of the faults it was started with; once they are used up,
/// connections pass through untouched. What happens is recorded as ``Event``s a test waits for
/// (``event(_:where:)``): explicit events, never time.
public final class FaultProxy: Sendable {
    /// What the proxy does to one connection's answer.
    public enum Fault: Sendable, Equatable {
        /// Passes everything.
        case none
        /// Passes this many bytes of the answer (headers included), then closes both sides.
        case dropAfter(bytes: Int)
        /// Passes the answer only as ``grant(_:)`` allows, byte for byte.
        case gated
        /// Holds what the client sends until ``releaseRequests()``, then passes everything.
        case holdRequest
    }

    /// Something that happened on a connection (numbered from 1 in order of arrival).
    public enum Event: Sendable, Equatable {
        /// A client connected.
        case opened(connection: Int)
        /// The start of what the client sent first (its request line and headers).
        case request(connection: Int, head: String)
        /// The proxy cut the answer after this many bytes.
        case dropped(connection: Int, afterBytes: Int)
        /// The client closed its side, after the proxy had passed it this many bytes of answer.
        case clientClosed(connection: Int, forwardedBytes: Int)
    }

    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    /// `http://127.0.0.1:PORT`.
    public var endpoint: URL { URL(string: "http://127.0.0.1:\(port)")! }

    private let upstreamPort: Int
    private let state: Mutex<State>
    private let server: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>
    private let acceptor = Mutex<Task<Void, Never>?>(nil)

    private struct State {
        var faults: [Fault]
        var connections = 0
        var events: [Event] = []
        var eventWaiters: [UUID: (predicate: @Sendable (Event) -> Bool, continuation: CheckedContinuation<Event, any Error>)] = [:]
        var credit = 0
        var creditWaiters: [UUID: CheckedContinuation<Void, any Error>] = [:]
        var requestsReleased = false
        var releaseWaiters: [UUID: CheckedContinuation<Void, any Error>] = [:]
    }

    /// Starts a proxy to `upstreamPort` on 127.0.0.1 whose connections take `faults` in turn.
    public static func start(upstreamPort: Int, faults: [Fault]) async throws -> FaultProxy {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        let proxy = FaultProxy(server: server, upstreamPort: upstreamPort, faults: faults)
        let task = Task { await proxy.accept() }
        proxy.acceptor.withLock { $0 = task }
        return proxy
    }

    private init(server: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>, upstreamPort: Int, faults: [Fault]) {
        self.server = server
        self.upstreamPort = upstreamPort
        port = server.channel.localAddress?.port ?? 0
        state = Mutex(State(faults: faults))
    }

    /// Stops accepting and closes every connection.
    public func stop() async {
        let task = acceptor.withLock { $0 }
        task?.cancel()
        await task?.value
        try? await server.channel.close()
    }

    /// Lets `bytes` more bytes of answer through the gated connections.
    public func grant(_ bytes: Int) {
        let waiters = state.withLock { state in
            state.credit += bytes
            defer { state.creditWaiters = [:] }
            return Array(state.creditWaiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Lets held requests (``Fault/holdRequest``) through, and every later one.
    public func releaseRequests() {
        let waiters = state.withLock { state in
            state.requestsReleased = true
            defer { state.releaseWaiters = [:] }
            return Array(state.releaseWaiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Waits for ``releaseRequests()``.
    private func waitForRelease() async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if state.requestsReleased { return .success(()) }
                    state.releaseWaiters[id] = continuation
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            state.withLock { $0.releaseWaiters.removeValue(forKey: id) }?.resume(throwing: CancellationError())
        }
    }

    /// Everything recorded so far, in order.
    public var events: [Event] { state.withLock { $0.events } }

    /// The first event (so far or to come) that `predicate` accepts.
    ///
    /// - Parameters:
    ///   - what: What is waited for, for the hang guard's message.
    ///   - limit: The hang guard: far beyond the expected time, it only turns a hang into a failure.
    public func event(_ what: String, limit: Duration = .seconds(300),
                      where predicate: @escaping @Sendable (Event) -> Bool) async throws -> Event {
        try await withThrowingTaskGroup(of: Event.self) { group in
            group.addTask { try await self.waitForEvent(predicate) }
            group.addTask {
                try await Task.sleep(for: limit)
                throw HangGuardExpired(what: what, limit: limit)
            }
            let event = try await group.next()!
            group.cancelAll()
            return event
        }
    }

    /// A hang guard's failure: what did not happen within a limit far beyond its expected time.
    public struct HangGuardExpired: Error, CustomStringConvertible {
        public var what: String
        public var limit: Duration
        public var description: String { "hang guard: \(what) did not happen within \(limit); the code under test is stuck" }
    }

    private func waitForEvent(_ predicate: @escaping @Sendable (Event) -> Bool) async throws -> Event {
        let id = UUID()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // Checked under the lock the cancellation handler also takes, so a waiter is
                // either seen by the handler or never registered.
                let outcome: Result<Event, any Error>? = state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if let event = state.events.first(where: predicate) { return .success(event) }
                    state.eventWaiters[id] = (predicate, continuation)
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            state.withLock { $0.eventWaiters.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
        }
    }

    private func record(_ event: Event) {
        let woken = state.withLock { state in
            state.events.append(event)
            let matching = state.eventWaiters.filter { $0.value.predicate(event) }
            for id in matching.keys { state.eventWaiters.removeValue(forKey: id) }
            return matching.values.map(\.continuation)
        }
        for continuation in woken { continuation.resume(returning: event) }
    }

    /// Takes up to `wanted` bytes of credit, waiting until there is some.
    private func takeCredit(_ wanted: Int) async throws -> Int {
        while true {
            let taken: Int? = state.withLock { state in
                guard state.credit > 0 else { return nil }
                let taken = min(state.credit, wanted)
                state.credit -= taken
                return taken
            }
            if let taken { return taken }
            let id = UUID()
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    let outcome: Result<Void, any Error>? = state.withLock { state in
                        if Task.isCancelled { return .failure(CancellationError()) }
                        if state.credit > 0 { return .success(()) }
                        state.creditWaiters[id] = continuation
                        return nil
                    }
                    if let outcome { continuation.resume(with: outcome) }
                }
            } onCancel: {
                state.withLock { $0.creditWaiters.removeValue(forKey: id) }?.resume(throwing: CancellationError())
            }
        }
    }

    // MARK: - Relaying

    private func accept() async {
        await withDiscardingTaskGroup { group in
            do {
                try await server.executeThenClose { inbound in
                    for try await client in inbound {
                        group.addTask { await self.relay(client) }
                    }
                }
            } catch {
                // Stopped (cancelled) or the listening socket failed: either way, no more clients.
            }
            group.cancelAll()
        }
    }

    private struct Dropped: Error {}

    /// What the two directions of one connection share.
    private final class Counts: Sendable {
        let forwarded = Atomic<Int>(0)
        let isDropped = Atomic<Bool>(false)
    }

    private func relay(_ client: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async {
        let (connection, fault) = state.withLock { state -> (Int, Fault) in
            state.connections += 1
            return (state.connections, state.faults.isEmpty ? .none : state.faults.removeFirst())
        }
        record(.opened(connection: connection))
        let counts = Counts()
        do {
            let upstream = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(host: "127.0.0.1", port: upstreamPort) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
            try await client.executeThenClose { clientIn, clientOut in
                try await upstream.executeThenClose { upstreamIn, upstreamOut in
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            var head = Data()
                            var isHeadRecorded = false
                            for try await buffer in clientIn {
                                if fault == .holdRequest { try await self.waitForRelease() }
                                if !isHeadRecorded {
                                    head.append(contentsOf: buffer.readableBytesView.prefix(max(0, 8192 - head.count)))
                                    if let end = head.range(of: Data("\r\n\r\n".utf8)) {
                                        self.record(.request(connection: connection, head: String(decoding: head[..<end.lowerBound], as: UTF8.self)))
                                        isHeadRecorded = true
                                    }
                                }
                                try await upstreamOut.write(buffer)
                            }
                            if !counts.isDropped.load(ordering: .acquiring) {
                                self.record(.clientClosed(connection: connection, forwardedBytes: counts.forwarded.load(ordering: .acquiring)))
                            }
                        }
                        group.addTask {
                            for try await var buffer in upstreamIn {
                                switch fault {
                                case .none, .holdRequest:
                                    try await clientOut.write(buffer)
                                    counts.forwarded.add(buffer.readableBytes, ordering: .releasing)
                                case let .dropAfter(limit):
                                    let room = limit - counts.forwarded.load(ordering: .acquiring)
                                    if buffer.readableBytes >= room {
                                        if room > 0 { try await clientOut.write(buffer.readSlice(length: room)!) }
                                        counts.forwarded.add(max(room, 0), ordering: .releasing)
                                        counts.isDropped.store(true, ordering: .releasing)
                                        self.record(.dropped(connection: connection, afterBytes: limit))
                                        throw Dropped()
                                    }
                                    try await clientOut.write(buffer)
                                    counts.forwarded.add(buffer.readableBytes, ordering: .releasing)
                                case .gated:
                                    while buffer.readableBytes > 0 {
                                        let allowed = try await self.takeCredit(buffer.readableBytes)
                                        try await clientOut.write(buffer.readSlice(length: allowed)!)
                                        counts.forwarded.add(allowed, ordering: .releasing)
                                    }
                                }
                            }
                        }
                        // Either side ending ends the connection.
                        try await group.next()
                        group.cancelAll()
                    }
                }
            }
        } catch {
            // A drop, a closed side or the proxy stopping: the connection is over either way.
        }
    }
}
