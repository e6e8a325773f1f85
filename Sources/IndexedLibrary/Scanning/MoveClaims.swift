import Synchronization

/// The rows already taken by moved files in this scan, so two copies of one moved file never
/// take the same row, and a taken row is not removed as gone.
final class MoveClaims: Sendable {
    private let claimed = Mutex<Set<Int64>>([])

    /// Takes `id`; `false` when another file took it first.
    func claim(_ id: Int64) -> Bool {
        claimed.withLock { $0.insert(id).inserted }
    }

    var all: Set<Int64> {
        claimed.withLock { $0 }
    }
}
