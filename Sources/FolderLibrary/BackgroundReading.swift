import AssetsKit
import Foundation
import Synchronization

/// The folder library's reading of file metadata in the background, and the live changes it
/// announces: who listens (``FolderLibrary/changes()``), who waits for the reads to end
/// (``FolderLibrary/settled()``), and whether a pass is under way.
final class BackgroundReading: Sendable {
    private struct State {
        var isRunning = false
        /// Set when reads were asked for during a pass: the pass looks for unread files again before it ends.
        var isRequestedAgain = false
        var waiters: [CheckedContinuation<Void, Never>] = []
        var listeners: [UUID: AsyncStream<LibraryChange>.Continuation] = [:]
        var token: Int64 = 0
        /// Calls being answered, and the background pass waiting for them to end.
        var callsAnswered = 0
        var waitingForCalls: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    /// Whether a pass is under way.
    var isRunning: Bool {
        state.withLock { $0.isRunning }
    }

    /// Whether a new pass should start; `false` when one is under way (it will look again).
    func begin() -> Bool {
        state.withLock { state in
            if state.isRunning {
                state.isRequestedAgain = true
                return false
            }
            state.isRunning = true
            return true
        }
    }

    /// Whether the pass should look for unread files again before it ends; when not, the pass is
    /// over and those waiting for it are let go.
    func shouldContinue() -> Bool {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>]? in
            if state.isRequestedAgain {
                state.isRequestedAgain = false
                return nil
            }
            state.isRunning = false
            defer { state.waiters = [] }
            return state.waiters
        }
        guard let waiters else { return true }
        for waiter in waiters { waiter.resume() }
        return false
    }

    /// Returns when no pass is under way.
    func waitUntilIdle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isIdle = state.withLock { state in
                if !state.isRunning { return true }
                state.waiters.append(continuation)
                return false
            }
            if isIdle { continuation.resume() }
        }
    }

    /// A call is being answered.
    func callStarted() {
        state.withLock { $0.callsAnswered += 1 }
    }

    /// A call was answered; the background pass goes on when none is left.
    func callEnded() {
        let waiting = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.callsAnswered -= 1
            guard state.callsAnswered == 0 else { return nil }
            defer { state.waitingForCalls = nil }
            return state.waitingForCalls
        }
        waiting?.resume()
    }

    /// Returns when no call is being answered.
    func waitUntilNoCallIsAnswered() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isFree = state.withLock { state in
                if state.callsAnswered == 0 { return true }
                state.waitingForCalls = continuation
                return false
            }
            if isFree { continuation.resume() }
        }
    }

    /// A new listener's stream of changes.
    func listen() -> AsyncStream<LibraryChange> {
        let (stream, continuation) = AsyncStream<LibraryChange>.makeStream(bufferingPolicy: .bufferingNewest(16))
        let id = UUID()
        state.withLock { $0.listeners[id] = continuation }
        continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.listeners.removeValue(forKey: id) } }
        return stream
    }

    /// Sends a change, with the next token, to every listener.
    func announce(collections: [CollectionIdentifier: CollectionChange], removed: Set<AssetIdentifier>) {
        let (listeners, change) = state.withLock { state in
            state.token += 1
            return (Array(state.listeners.values), LibraryChange(token: ChangeToken(state.token), removedAssets: removed, collections: collections))
        }
        for listener in listeners { listener.yield(change) }
    }

    /// Ends every listener's stream (the library is gone).
    func finish() {
        for listener in state.withLock({ Array($0.listeners.values) }) { listener.finish() }
    }
}
