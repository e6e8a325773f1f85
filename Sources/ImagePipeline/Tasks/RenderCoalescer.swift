import AssetsKit
import Foundation

/// Merges identical requests in flight: the first caller's request starts the work, later
/// callers with the same key wait for the same result, and each gets it on its own.
///
/// A caller that is cancelled stops waiting at once; the work is cancelled only when no
/// caller is left.
actor RenderCoalescer {
    private struct Flight {
        var work: Task<Void, Never>?
        var waiters: [Int: CheckedContinuation<ImageResult, Error>] = [:]
    }

    private var flights: [RenditionKey: Flight] = [:]
    private var nextWaiter = 0

    /// The result of `work` for `key`, shared with every other caller asking for `key` meanwhile.
    /// `joined` is told when the caller joins work that was already under way.
    func result(for key: RenditionKey, joined: @Sendable () async -> Void = {},
                work: @escaping @Sendable () async throws -> ImageResult) async throws -> ImageResult {
        nextWaiter += 1
        let waiter = nextWaiter
        let isJoining = flights[key] != nil
        if isJoining { await joined() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard !Task.isCancelled else {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                flights[key, default: Flight()].waiters[waiter] = continuation
                if flights[key]?.work == nil {
                    flights[key]?.work = Task {
                        let outcome: Result<ImageResult, Error>
                        do { outcome = .success(try await work()) } catch { outcome = .failure(error) }
                        self.finish(key, with: outcome)
                    }
                }
            }
        } onCancel: {
            Task { await self.leave(key, waiter: waiter) }
        }
    }

    /// How many callers wait for the work for `key`. Tests wait on it to know that every
    /// caller has joined the work before they let it finish.
    func waiterCount(for key: RenditionKey) -> Int { flights[key]?.waiters.count ?? 0 }

    private func finish(_ key: RenditionKey, with outcome: Result<ImageResult, Error>) {
        guard let flight = flights.removeValue(forKey: key) else { return }
        for continuation in flight.waiters.values { continuation.resume(with: outcome) }
    }

    private func leave(_ key: RenditionKey, waiter: Int) {
        guard let continuation = flights[key]?.waiters.removeValue(forKey: waiter) else { return }
        continuation.resume(throwing: CancellationError())
        if flights[key]?.waiters.isEmpty == true {
            flights.removeValue(forKey: key)?.work?.cancel()
        }
    }
}
