import Foundation
@testable import ImagePipeline
import Synchronization
import Testing

@Suite("Blocking work: a brief read never waits behind renders")
struct BlockingWorkTests {
    /// Renders that keep the CPU busy until a brief read has run, or until a bound that only a
    /// hang reaches.
    final class BusyRenders: Sendable {
        private let briefRan = Mutex(false)
        private let firstStarted = Mutex<CheckedContinuation<Void, Never>?>(nil)
        private let bound = ContinuousClock.now + .seconds(300)

        /// Returns once the first render is running.
        func start(_ count: Int) async -> [Task<Bool, any Error>] {
            var renders: [Task<Bool, any Error>] = []
            await withCheckedContinuation { continuation in
                firstStarted.withLock { $0 = continuation }
                renders = (0..<count).map { _ in Task { try await BlockingWork.run(.rendering) { self.spin() } } }
            }
            return renders
        }

        /// Spins until the brief read ran (`true`) or the bound passed (`false`).
        private func spin() -> Bool {
            firstStarted.withLock { started in
                started?.resume()
                started = nil
            }
            while ContinuousClock.now < bound {
                if briefRan.withLock({ $0 }) { return true }
            }
            return false
        }

        func briefReadRan() {
            briefRan.withLock { $0 = true }
        }
    }

    @Test("a brief read runs while renders hold every thread they may have")
    func briefWorkHasThreadsOfItsOwn() async throws {
        let renders = BusyRenders()
        // More renders than the rendering pool has threads: the rest wait, as requests do.
        let running = await renders.start(4 * ProcessInfo.processInfo.activeProcessorCount)
        try await BlockingWork.run(.brief) { renders.briefReadRan() }
        for render in running {
            #expect(try await render.value, "a render ended at its bound: the brief read waited for it")
        }
    }

    final class Tracked: Sendable {}

    final class WeakReference: @unchecked Sendable {
        weak var object: Tracked?
        init(_ object: Tracked) { self.object = object }
    }

    @Test("work that has run is let go while more keeps waiting, as during a scan")
    func runWorkIsLetGo() async {
        let threads = BriefWorkThreads(count: 1)
        let gate = DispatchSemaphore(value: 0)
        threads.async { gate.wait() }
        var references: [WeakReference] = []
        for _ in 0..<200 {
            let tracked = Tracked()
            references.append(WeakReference(tracked))
            threads.async { _ = tracked }
        }
        let firstHundred = Array(references.prefix(100))
        let alive = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
            threads.async { continuation.resume(returning: firstHundred.filter { $0.object != nil }.count) }
            // Still waiting when the count is taken: the queue never empties.
            threads.async {}
            gate.signal()
        }
        #expect(alive == 0, "\(alive) of the first 100 works that ran are still held")
    }
}
