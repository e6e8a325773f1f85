import AssetsKit
import Foundation
import PostgresNIO
import Synchronization

/// The latest change token a store knows of, and who wants to hear of a newer one: fed at once
/// by this process's own write transactions (``PostgresIndexStore``'s writes that record
/// changes) and, for other processes' commits, by a connection that listens on the channel every
/// such commit notifies (`LISTEN`, ``PostgresSchema/changesChannel``). Lost connections are
/// made again a second later, and the token read again then, so nothing committed meanwhile is
/// missed.
final class PostgresChangeWatch: Sendable {
    private struct State {
        var latest: Int64
        var listeners: [UUID: @Sendable (Int64) -> Void] = [:]
    }

    private let state: Mutex<State>
    private let listening = Mutex<Task<Void, Never>?>(nil)

    /// A watch that knows `latest` and starts listening to `database`.
    init(database: PostgresPool, latest: Int64) {
        state = Mutex(State(latest: latest))
        let task = Task { [weak self] in
            while !Task.isCancelled {
                try? await database.withSession { session in
                    try await session.connection.listen(on: PostgresSchema.changesChannel) { notifications in
                        // Listening now: whatever committed before is read here, the rest is notified.
                        self?.advance(to: try await PostgresIndexStore.latestToken(session))
                        for try await _ in notifications {
                            self?.advance(to: try await database.withSession(PostgresIndexStore.latestToken))
                        }
                    }
                }
                try? await Task.sleep(for: .seconds(1))
            }
        }
        listening.withLock { $0 = task }
    }

    deinit {
        listening.withLock { $0?.cancel() }
    }

    /// Takes `token` as the latest if it is newer, and tells the listeners.
    func advance(to token: Int64) {
        let listeners = state.withLock { state -> [@Sendable (Int64) -> Void] in
            guard token > state.latest else { return [] }
            state.latest = token
            return Array(state.listeners.values)
        }
        for listener in listeners { listener(token) }
    }

    /// Every change committed from now on, merged per new token: this process's at once, other
    /// processes' as soon as their notification arrives. The stream ends when the consumer stops listening.
    func changes(reading store: PostgresIndexStore) -> AsyncStream<LibraryChange> {
        let (stream, continuation) = AsyncStream<LibraryChange>.makeStream()
        let (tokens, tokenSink) = AsyncStream<Int64>.makeStream()
        let id = UUID()
        let start = state.withLock { state in
            state.listeners[id] = { tokenSink.yield($0) }
            return state.latest
        }
        let task = Task {
            var seen = ChangeToken(start)
            for await latest in tokens where ChangeToken(latest) > seen {
                guard let change = try? await store.changes(since: seen) else { continue }
                if change.token > seen { continuation.yield(change) }
                seen = max(seen, change.token)
            }
            continuation.finish()
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.listeners.removeValue(forKey: id) }
            tokenSink.finish()
            task.cancel()
        }
        return stream
    }
}
