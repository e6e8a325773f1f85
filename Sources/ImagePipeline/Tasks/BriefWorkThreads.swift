import Foundation

/// Threads of our own that run brief blocking work (``BlockingWork/Kind/brief``) in the order
/// it came: as many as the machine has cores (at least two), started on first use and kept.
/// More measured slower: eight on two cores indexed the shared corpus (failing files read twice,
/// the second time alone: `VipsErrorScope`) at 480–570 files/s against 770–860 with two.
///
/// Not Dispatch's: every global queue of libdispatch on Linux shares its thread pool with
/// another quality of service or with Swift's cooperative pool (user-interactive work waits for
/// user-initiated work, utility work for low-priority tasks), so only threads of our own are
/// sure never to wait behind renders.
final class BriefWorkThreads: @unchecked Sendable {
    /// The threads the process's brief work runs on.
    static let shared = BriefWorkThreads(count: max(2, ProcessInfo.processInfo.activeProcessorCount))

    // `pending[next...]` waits, in order (what was taken is let go once it is half of the
    // array); guarded by `condition`.
    private let condition = NSCondition()
    private var pending: [@Sendable () -> Void] = []
    private var next = 0

    /// Starts `count` threads, which wait for work as long as the process lives (the process's
    /// own are ``shared``; a test makes its own to look at the queue).
    init(count: Int) {
        for index in 0..<count {
            let thread = Thread { [self] in runForever() }
            thread.name = "brief-work-\(index)"
            thread.start()
        }
    }

    /// Runs `work` on one of the threads once those before it have started.
    func async(_ work: @escaping @Sendable () -> Void) {
        condition.lock()
        pending.append(work)
        condition.signal()
        condition.unlock()
    }

    private func runForever() {
        while true {
            condition.lock()
            while next == pending.count { condition.wait() }
            let work = pending[next]
            next += 1
            if next == pending.count {
                pending.removeAll(keepingCapacity: true)
                next = 0
            } else if next >= 64, 2 * next >= pending.count {
                // A scan keeps work waiting all along: what was taken goes, a half at a time.
                pending.removeFirst(next)
                next = 0
            }
            condition.unlock()
            work()
        }
    }
}
