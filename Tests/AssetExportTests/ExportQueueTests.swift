import Foundation
@testable import AssetExport
import Synchronization
import Testing
import TestSupport

@Suite("Export queue: prepared exports handed to the export threads, each once, in order")
struct ExportQueueTests {
    @Test("every job is taken once, in order, by the threads taking; take returns nil once closed and drained")
    func eachJobOnce() async throws {
        let queue = ExportQueue<Int>()
        let taken = Mutex<[Int]>([])
        let finished = Mutex(0)
        for _ in 0..<3 {
            Thread {
                while let (job, isCancelled) = queue.take() {
                    #expect(!isCancelled)
                    taken.withLock { $0.append(job) }
                }
                finished.withLock { $0 += 1 }
            }.start()
        }
        for job in 0..<200 { queue.put(job) }
        queue.close()
        try await HangGuard.waitUntil("the end of the three threads") { finished.withLock { $0 } == 3 }
        #expect(taken.withLock { $0.sorted() } == Array(0..<200))
        #expect(queue.take() == nil)
    }

    @Test("a thread waiting on an empty queue gets the job put next")
    func waiterWoken() async throws {
        let queue = ExportQueue<String>()
        let received = Mutex<String?>(nil)
        Thread { received.withLock { $0 = queue.take()?.job } }.start()
        try await HangGuard.waitUntil("the thread waiting in take()") { queue.waitingThreads == 1 }
        queue.put("first")
        try await HangGuard.waitUntil("the job's arrival") { received.withLock { $0 } != nil }
        #expect(received.withLock { $0 } == "first")
    }

    @Test("after cancel, the jobs still queued come out marked cancelled")
    func cancelledJobs() {
        let queue = ExportQueue<Int>()
        queue.put(1)
        #expect(queue.take()?.isCancelled == false)
        queue.put(2)
        queue.put(3)
        queue.cancel()
        queue.close()
        #expect(queue.take()?.isCancelled == true)
        #expect(queue.take()?.job == 3)
        #expect(queue.take() == nil)
    }
}
