/// Bounds how many renders run at once, visible ones first.
///
/// A visible render starts whenever fewer than `width` visible renders run: it never waits
/// behind prefetching. A prefetch render starts only when no visible render waits, fewer than
/// `width` renders of any kind run, and fewer than `prefetchWidth` prefetch renders run, so
/// prefetching leaves room for what is on screen.
actor RenderScheduler {
    let width: Int
    let prefetchWidth: Int
    private var runningVisible = 0
    private var runningPrefetch = 0
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

    func release(_ priority: RenderPriority) {
        switch priority {
        case .visible: runningVisible -= 1
        case .prefetch: runningPrefetch -= 1
        }
        startWaiters()
    }

    /// Someone now looks at the result of waiting work for `key`: let it start as visible.
    func promote(_ key: ImageCacheKey) {
        for index in waiting.indices where waiting[index].key == key {
            waiting[index].priority = .visible
        }
        startWaiters()
    }

    private func canStart(_ priority: RenderPriority) -> Bool {
        switch priority {
        case .visible:
            runningVisible < width
        case .prefetch:
            !waiting.contains { $0.priority == .visible }
                && runningVisible + runningPrefetch < width && runningPrefetch < prefetchWidth
        }
    }

    private func occupy(_ priority: RenderPriority) {
        switch priority {
        case .visible: runningVisible += 1
        case .prefetch: runningPrefetch += 1
        }
    }

    private func startWaiters() {
        for priority in [RenderPriority.visible, .prefetch] {
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
