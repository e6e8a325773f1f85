import AssetsKit
import Foundation
import Synchronization

/// The transfers of originals under way, one per original version: every caller asking for one
/// while it is under way waits on that one transfer and hears its progress (a caller that comes
/// late hears first how far it is). A caller that is cancelled stops waiting at once; when no
/// caller waits any more, the transfer's task is cancelled, which closes its connection. A small
/// coordinator only: the transfer itself is the closure it is given.
final class SharedDownloads: Sendable {
    /// One original version.
    struct Key: Hashable, Sendable {
        var path: String
        var byteSize: Int64
        var modificationTime: Int64
    }

    /// Does the transfer, telling the reporter how far it is.
    typealias Transfer = @Sendable (_ report: @escaping @Sendable (TransferProgress) -> Void) async throws -> Void

    private struct Waiter {
        var continuation: CheckedContinuation<Void, any Error>
        var progress: (@Sendable (TransferProgress) -> Void)?
    }

    private struct Entry {
        /// Tells this transfer from a later one of the same original (after every caller of
        /// this one left, a new caller starts afresh).
        let generation: UUID
        var task: Task<Void, Never>?
        var waiters: [UUID: Waiter] = [:]
        var latest: TransferProgress?
    }

    private let entries = Mutex<[Key: Entry]>([:])

    /// How many transfers are under way (the tests wait for none).
    var activeCount: Int { entries.withLock { $0.count } }

    /// Waits for the transfer of `key`, starting it with `transfer` when none is under way.
    /// - Throws: What the transfer threw; `CancellationError` when this caller was cancelled.
    func fetch(_ key: Key, progress: (@Sendable (TransferProgress) -> Void)?, transfer: @escaping Transfer) async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Checked under the lock the cancellation handler takes too: a waiter is either
                // seen by the handler or never registered.
                let (cancelled, latest): (Bool, TransferProgress?) = entries.withLock { entries in
                    if Task.isCancelled { return (true, nil) }
                    let waiter = Waiter(continuation: continuation, progress: progress)
                    if var entry = entries[key] {
                        entry.waiters[id] = waiter
                        entries[key] = entry
                        return (false, entry.latest)
                    }
                    let generation = UUID()
                    var entry = Entry(generation: generation)
                    entry.waiters[id] = waiter
                    entry.task = Task { [self] in await run(key, generation: generation, transfer: transfer) }
                    entries[key] = entry
                    return (false, nil)
                }
                if cancelled {
                    continuation.resume(throwing: CancellationError())
                } else if let latest {
                    progress?(latest)
                }
            }
        } onCancel: {
            let (waiter, abandoned): (Waiter?, Task<Void, Never>?) = entries.withLock { entries in
                guard var entry = entries[key], let waiter = entry.waiters.removeValue(forKey: id) else { return (nil, nil) }
                if entry.waiters.isEmpty {
                    entries[key] = nil
                    return (waiter, entry.task)
                }
                entries[key] = entry
                return (waiter, nil)
            }
            waiter?.continuation.resume(throwing: CancellationError())
            abandoned?.cancel()
        }
    }

    /// Runs one transfer and hands its outcome to everyone still waiting for it.
    private func run(_ key: Key, generation: UUID, transfer: Transfer) async {
        let outcome: Result<Void, any Error>
        do {
            try await transfer { [self] progress in report(progress, of: key, generation: generation) }
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        let waiters: [Waiter] = entries.withLock { entries in
            guard let entry = entries[key], entry.generation == generation else { return [] }
            entries[key] = nil
            return Array(entry.waiters.values)
        }
        for waiter in waiters { waiter.continuation.resume(with: outcome) }
    }

    private func report(_ progress: TransferProgress, of key: Key, generation: UUID) {
        let listeners: [@Sendable (TransferProgress) -> Void] = entries.withLock { entries in
            guard var entry = entries[key], entry.generation == generation else { return [] }
            entry.latest = progress
            entries[key] = entry
            return entry.waiters.values.compactMap(\.progress)
        }
        for listener in listeners { listener(progress) }
    }
}
