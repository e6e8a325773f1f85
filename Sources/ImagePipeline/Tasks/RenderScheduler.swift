import AssetsKit
/// Bounds how many renders run at once, in three tiers: a visible cell's first image, then the
/// sharp upgrade of a visible cell, then prefetch; and how many pixels their decodes hold
/// together.
///
/// - A `RenderPriority.visibleFirst` render starts whenever fewer than `width` of its tier
///   run: it never waits behind a sharp upgrade or prefetching, only behind other first images.
/// - A `RenderPriority.visibleSharp` render starts when no first image waits and fewer than
///   `width` visible renders run.
/// - A `RenderPriority.prefetch` render starts only when no visible render waits, fewer than
///   `width` renders of any kind run, and fewer than `prefetchWidth` prefetch renders run, so
///   prefetching leaves room for what is on screen.
///
/// Whatever its tier, a render starts only while the decode pixels of the renders running,
/// its own included, stay within `pixelBudget` (``RenderPixelBudget``), or when nothing else
/// runs: a render larger than the budget runs alone. So three 200-MP photos wait for each other
/// where three 12-MP ones run side by side.
///
/// Within a tier, requesters take turns (`ImageRequest.requester`: a picker session, say): the
/// next to start is the oldest waiting render of the requester whose last render started
/// longest ago, so that one requester's many renders never hold up another's; one requester's
/// renders start in the order they asked. A render waiting for pixels is not overtaken by a
/// smaller one of its tier. A waiting render whose caller is cancelled leaves the queue at once.
actor RenderScheduler {
    let width: Int
    let prefetchWidth: Int
    let pixelBudget: Int
    private var running: [RenderPriority: Int] = [:]
    private var runningPixels = 0
    private var waiting: [Waiter] = []
    private var nextTicket = 0
    /// When each requester with renders waiting last had one start (the count of starts then).
    private var lastStart: [String?: Int] = [:]
    private var starts = 0

    private struct Waiter {
        let ticket: Int
        let key: RenditionKey
        var priority: RenderPriority
        let pixels: Int
        let requester: String?
        let continuation: CheckedContinuation<RenderSlot, Error>
    }

    /// What a granted render holds until ``release(_:)``.
    struct RenderSlot: Sendable, Hashable {
        /// The tier the slot was granted in (a waiting render may have moved up).
        let priority: RenderPriority
        let pixels: Int
    }

    /// - Parameters:
    ///   - width: Renders running at once.
    ///   - pixelBudget: Decode pixels of the renders running at once (see ``RenderPixelBudget``).
    init(width: Int, pixelBudget: Int = .max) {
        self.width = max(1, width)
        self.prefetchWidth = max(1, width - 1)
        self.pixelBudget = max(1, pixelBudget)
    }

    /// Waits for a slot for a render whose decode holds up to `pixels`, for `requester`; pass
    /// the slot to ``release(_:)`` when the render ends.
    func acquire(for key: RenditionKey, priority: RenderPriority, pixels: Int = 1, requester: String? = nil) async throws -> RenderSlot {
        try Task.checkCancellation()
        if !isWaiting(priority), canStart(priority, pixels: pixels) {
            return occupy(priority, pixels: pixels, requester: requester)
        }
        nextTicket += 1
        let ticket = nextTicket
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiting.append(Waiter(ticket: ticket, key: key, priority: priority, pixels: max(0, pixels), requester: requester,
                                      continuation: continuation))
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

    func release(_ slot: RenderSlot) {
        running[slot.priority, default: 0] -= 1
        runningPixels -= slot.pixels
        startWaiters()
    }

    /// Someone now waits for the result of work for `key` at `priority`: let it start as that,
    /// if that is more urgent than it waited as.
    func promote(_ key: RenditionKey, to priority: RenderPriority) {
        for index in waiting.indices where waiting[index].key == key && waiting[index].priority < priority {
            waiting[index].priority = priority
        }
        startWaiters()
    }

    private func canStart(_ priority: RenderPriority, pixels: Int) -> Bool {
        guard runningPixels == 0 || runningPixels + pixels <= pixelBudget else { return false }
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

    private func occupy(_ priority: RenderPriority, pixels: Int, requester: String?) -> RenderSlot {
        running[priority, default: 0] += 1
        runningPixels += max(0, pixels)
        starts += 1
        lastStart[requester] = starts
        return RenderSlot(priority: priority, pixels: max(0, pixels))
    }

    private func startWaiters() {
        for priority in RenderPriority.allCases.reversed() {
            while let index = nextTurn(in: priority), canStart(priority, pixels: waiting[index].pixels) {
                let waiter = waiting.remove(at: index)
                waiter.continuation.resume(returning: occupy(priority, pixels: waiter.pixels, requester: waiter.requester))
            }
        }
        lastStart = lastStart.filter { entry in waiting.contains { $0.requester == entry.key } }
    }

    /// The waiting render of `priority` whose turn it is: the oldest of the requester whose last
    /// render started longest ago (one that never started goes first).
    private func nextTurn(in priority: RenderPriority) -> Int? {
        waiting.indices.filter { waiting[$0].priority == priority }.min { a, b in
            let turnA = lastStart[waiting[a].requester] ?? 0, turnB = lastStart[waiting[b].requester] ?? 0
            return turnA != turnB ? turnA < turnB : waiting[a].ticket < waiting[b].ticket
        }
    }

    private func cancelWaiter(_ ticket: Int) {
        guard let index = waiting.firstIndex(where: { $0.ticket == ticket }) else { return }
        waiting.remove(at: index).continuation.resume(throwing: CancellationError())
        startWaiters()
    }
}
