import Foundation

/// The exports prepared for the export threads: the async side puts each one in as soon as its
/// file and name are known, and a thread that finished an export takes the next at once,
/// without waiting for the async side to see the result (a round trip through the event
/// loops between two renders left a core idle ~2.5 ms per photo).
///
/// ``take()`` blocks the calling thread, so only the exporter's own threads call it.
final class ExportQueue<Job: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var jobs: [Job] = []
    private var next = 0
    private var closed = false
    private var cancelled = false
    private var waiting = 0

    /// Queues `job` for the next free thread.
    func put(_ job: Job) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// No more jobs will come: the threads finish those queued and then stop.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Jobs taken from now on are handed out marked cancelled, for their threads to report
    /// them without doing them.
    func cancel() {
        condition.lock()
        cancelled = true
        condition.unlock()
    }

    /// How many threads wait in ``take()`` for a job. Tests wait on it to put a job only once a
    /// thread is surely waiting, instead of guessing with a sleep.
    var waitingThreads: Int {
        condition.lock()
        defer { condition.unlock() }
        return waiting
    }

    /// The next job, and whether the export was cancelled; waits while the queue is empty and
    /// open, and returns `nil` once it is closed and empty.
    func take() -> (job: Job, isCancelled: Bool)? {
        condition.lock()
        defer { condition.unlock() }
        while next == jobs.count && !closed {
            waiting += 1
            condition.wait()
            waiting -= 1
        }
        guard next < jobs.count else { return nil }
        let job = jobs[next]
        next += 1
        if next == jobs.count {
            jobs.removeAll(keepingCapacity: true)
            next = 0
        }
        return (job, cancelled)
    }
}
