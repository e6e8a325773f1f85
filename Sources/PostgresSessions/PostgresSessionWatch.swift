import Foundation
import PickerSessions
import PostgresIndex
import PostgresNIO
import Synchronization

/// The sessions this process's pages watch, and the one connection per store that listens on
/// `assets_picker_sessions` for every server's changes to them (`LISTEN`): a notification
/// `"<id> <version>"` of a watched session is read again and yielded to its watchers if newer
/// than what they saw; `"<id> ended"` (deleted), or a read that finds it gone (deleted or
/// expired), finishes them. A lost connection is made again a second later, and every watched
/// session read again then, so no change committed meanwhile is missed. On the database's clock,
/// each watched session's watchers also end at its expiry time.
final class PostgresSessionWatch: Sendable {
    /// The payload's second word for a deleted session.
    static let ended = "ended"

    private struct Watcher {
        let continuation: AsyncStream<PickerSession>.Continuation
        /// The newest version yielded, or read when watching began.
        var seen: Int64?
    }

    private struct State {
        var watchers: [String: [UUID: Watcher]] = [:]
        var expiryTimers: [String: Task<Void, Never>] = [:]
        var isListening = false
        var listeningWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())
    private let listeningTask = Mutex<Task<Void, Never>?>(nil)
    private let clock: SessionClock

    /// Starts listening on `database`.
    init(database: PostgresPool, clock: SessionClock) {
        self.clock = clock
        let task = Task { [weak self] in
            while !Task.isCancelled {
                try? await database.withSession { session in
                    try await session.connection.listen(on: PostgresSessionSchema.sessionsChannel) { notifications in
                        // Listening now: what committed before is read again, the rest is notified.
                        await self?.becameListening()
                        for try await notification in notifications {
                            await self?.notified(notification.payload)
                        }
                    }
                }
                self?.state.withLock { $0.isListening = false }
                try? await Task.sleep(for: .seconds(1))
            }
        }
        listeningTask.withLock { $0 = task }
    }

    deinit {
        listeningTask.withLock { $0?.cancel() }
        for timer in state.withLock({ Array($0.expiryTimers.values) }) { timer.cancel() }
    }

    /// The store that reads sessions again; set by the first ``updates(of:reading:)``.
    private let reader = Mutex<(@Sendable (String) async throws -> PostgresSessionRecord?)?>(nil)

    /// Returns once the connection listens (the first time; at once after).
    func listening() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if state.isListening { return true }
                state.listeningWaiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    private func becameListening() async {
        let waiters = state.withLock { state in
            state.isListening = true
            defer { state.listeningWaiters = [] }
            return state.listeningWaiters
        }
        for waiter in waiters { waiter.resume() }
        for id in state.withLock({ Array($0.watchers.keys) }) { await reread(id) }
    }

    private func notified(_ payload: String) async {
        let words = payload.split(separator: " ", maxSplits: 1).map(String.init)
        guard words.count == 2, state.withLock({ $0.watchers[words[0]] != nil }) else { return }
        if words[1] == Self.ended { return ended(words[0]) }
        await reread(words[0])
    }

    /// Reads the session again and yields it to the watchers that have not seen its version;
    /// finishes them when it is gone. A failed read leaves them waiting for the next notification.
    private func reread(_ id: String) async {
        guard let read = reader.withLock({ $0 }) else { return }
        let record: PostgresSessionRecord?
        do {
            record = try await read(id)
        } catch {
            return
        }
        guard let record else { return ended(id) }
        state.withLock { state in
            for (key, watcher) in state.watchers[id] ?? [:] where watcher.seen.map({ record.version > $0 }) ?? true {
                watcher.continuation.yield(record.session)
                state.watchers[id]?[key]?.seen = record.version
            }
        }
    }

    /// Finishes the watchers of session `id`: it was deleted or has expired.
    func ended(_ id: String) {
        let (watchers, timer) = state.withLock { state in
            (state.watchers.removeValue(forKey: id) ?? [:], state.expiryTimers.removeValue(forKey: id))
        }
        timer?.cancel()
        for watcher in watchers.values { watcher.continuation.finish() }
    }

    /// The session's states from now on, as ``PostgresSessionStore/updates(of:)`` promises.
    func updates(of id: String, reading store: PostgresSessionStore) async throws -> AsyncStream<PickerSession> {
        reader.withLock { reader in
            if reader == nil { reader = { [weak store] id in try await store?.record(id) } }
        }
        let (stream, continuation) = AsyncStream<PickerSession>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let key = UUID()
        // Watching before reading, so that a change committed between the two is not missed.
        state.withLock { $0.watchers[id, default: [:]][key] = Watcher(continuation: continuation) }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { state in
                state.watchers[id]?[key] = nil
                if state.watchers[id]?.isEmpty == true {
                    state.watchers[id] = nil
                    state.expiryTimers.removeValue(forKey: id)?.cancel()
                }
            }
        }
        let record: PostgresSessionRecord?
        do {
            record = try await store.record(id)
        } catch {
            continuation.finish()
            throw error
        }
        guard let record else {
            ended(id)
            return stream
        }
        state.withLock { state in
            let seen = state.watchers[id]?[key]?.seen ?? record.version
            state.watchers[id]?[key]?.seen = max(seen, record.version)
        }
        if case .database = clock { endAtExpiry(id, expireTime: record.session.expireTime, store: store) }
        return stream
    }

    /// Ends the session's watchers at its expiry time (by this machine's clock, a little after
    /// the database's verdict is due; the session's row decides).
    private func endAtExpiry(_ id: String, expireTime: Date, store: PostgresSessionStore) {
        state.withLock { state in
            guard state.expiryTimers[id] == nil else { return }
            state.expiryTimers[id] = Task { [weak self, weak store] in
                // A read that finds the session gone ends the watchers (and this task); a failed
                // read, or a database clock a little behind, tries again a second later.
                while !Task.isCancelled, self?.state.withLock({ $0.watchers[id] != nil }) == true {
                    try? await Task.sleep(for: .seconds(max(1, expireTime.timeIntervalSinceNow + 0.5)))
                    _ = try? await store?.session(id)
                }
            }
        }
    }
}
