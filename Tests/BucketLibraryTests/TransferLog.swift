import AssetsKit
import Foundation
import Synchronization

/// The progress one caller of a fetch hears, as events a test waits for, in order.
final class TransferLog: Sendable {
    private let reports = Mutex<[TransferProgress]>([])
    private let waiters = Mutex<[(predicate: @Sendable (TransferProgress) -> Bool, continuation: CheckedContinuation<Void, Never>)]>([])

    /// What the fetch calls.
    var report: @Sendable (TransferProgress) -> Void {
        { [self] progress in
            reports.withLock { $0.append(progress) }
            let woken = waiters.withLock { waiters in
                let matching = waiters.filter { $0.predicate(progress) }
                waiters.removeAll { $0.predicate(progress) }
                return matching
            }
            for waiter in woken { waiter.continuation.resume() }
        }
    }

    var all: [TransferProgress] { reports.withLock { $0 } }

    /// Returns once a report `predicate` accepts came (or had come).
    func wait(for predicate: @escaping @Sendable (TransferProgress) -> Bool) async {
        await withCheckedContinuation { continuation in
            let done = waiters.withLock { waiters in
                if reports.withLock({ $0.contains(where: predicate) }) { return true }
                waiters.append((predicate, continuation))
                return false
            }
            if done { continuation.resume() }
        }
    }
}
