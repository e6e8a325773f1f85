/// Bounds how many renders run at once, in three tiers: a visible cell's first image, then the
/// sharp upgrade of a visible cell, then prefetch.
///
/// - A ``RenderPriority/visibleFirst`` render starts whenever fewer than `width` of its tier
///   run: it never waits behind a sharp upgrade or prefetching, only behind other first images.
/// - A ``RenderPriority/visibleSharp`` render starts when no first image waits and fewer than
///   `width` visible renders run.
/// - A ``RenderPriority/prefetch`` render starts only when no visible render waits, fewer than
///   `width` renders of any kind run, and fewer than `prefetchWidth` prefetch renders run, so
///   prefetching leaves room for what is on screen.
///
/// Within a tier, renders start in the order they asked. A waiting render whose caller is
/// cancelled leaves the queue at once.
actor RenderScheduler {
    let width: Int
    let prefetchWidth: Int
    private var running: [RenderPriority: Int] = [:]
    private var waiting: [Waiter] = []
    private var nextTicket = 0

    private struct Waiter {
        let ticket: Int
        let key: ImageCacheKey
        var priority: RenderPriority
        let continuation: CheckedContinuation<RenderPriority, Error>
    }

    init(width: Int) {
        self.width = max(1, width)
        self.prefetchWidth = max(1, width - 1)
    }

    /// Waits for a slot; returns the priority the slot was granted at (pass it to ``release(_:)``).
    func acquire(for key: ImageCacheKey, priority: RenderPriority) async throws -> RenderPriority {
        try Task.checkCancellation()
        if canStart(priority) {
            occupy(priority)
            return priority
        }
        nextTicket += 1
        let ticket = nextTicket
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiting.append(Waiter(ticket: ticket, key: key, priority: priority, continuation: continuation))
            }
        } onCancel: {
            Task { await self.cancelWaiter(ticket) }
        }
    }

    /// How many renders wait for a slot. Tests wait on it to know that a render has queued,
    /// or that a cancelled one has left the queue, instead of guessing with a sleep.
    var waitingCount: Int { waiting.count }

    /// How many renders of `priority` run now.
    func runningCount(_ priority: RenderPriority) -> Int { running[priority, default: 0] }

    func release(_ priority: RenderPriority) {
        running[priority, default: 0] -= 1
        startWaiters()
    }

    /// Someone now waits for the result of work for `key` at `priority`: let it start as that,
    /// if that is more urgent than it waited as.
    func promote(_ key: ImageCacheKey, to priority: RenderPriority) {
        for index in waiting.indices where waiting[index].key == key && waiting[index].priority < priority {
            waiting[index].priority = priority
        }
        startWaiters()
    }

    private func canStart(_ priority: RenderPriority) -> Bool {
        let first = running[.visibleFirst, default: 0], sharp = running[.visibleSharp, default: 0]
        let prefetch = running[.prefetch, default: 0]
        switch priority {
        case .visibleFirst:
            return first < width
        case .visibleSharp:
            return !isWaiting(.visibleFirst) && first + sharp < width
        case .prefetch:
            return !isWaiting(.visibleFirst) && !isWaiting(.visibleSharp)
                && first + sharp + prefetch < width && prefetch < prefetchWidth
        }
    }

    private func isWaiting(_ priority: RenderPriority) -> Bool {
        waiting.contains { $0.priority == priority }
    }

    private func occupy(_ priority: RenderPriority) {
        running[priority, default: 0] += 1
    }

    private func startWaiters() {
        for priority in RenderPriority.allCases.reversed() {
            while let index = waiting.firstIndex(where: { $0.priority == priority }), canStart(priority) {
                let waiter = waiting.remove(at: index)
                occupy(priority)
                waiter.continuation.resume(returning: priority)
            }
        }
    }

    private func cancelWaiter(_ ticket: Int) {
        guard let index = waiting.firstIndex(where: { $0.ticket == ticket }) else { return }
        waiting.remove(at: index).continuation.resume(throwing: CancellationError())
        startWaiters()
    }
}
