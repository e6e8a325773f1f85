import Dispatch

/// Runs heavy synchronous test work (decoding, encoding, external tools waited for) on a
/// thread of its own instead of one of the few threads of Swift's cooperative pool.
///
/// `swift test --parallel` runs every test on that pool, which has one thread per core. A
/// synchronous body that computes for seconds holds its thread all that time; on two cores two
/// such bodies stop every async test in the process from resuming. Inside `body` the test is
/// still the same task, so `#expect` and `#require` report to it as usual.
///
/// ```swift
/// @Test func decodes(_ file: URL) async throws {
///     try await offCooperativePool { try #require(renderer.render(file, ...)) }
/// }
/// ```
@discardableResult
public func offCooperativePool<Value, Failure: Error>(_ body: () throws(Failure) -> Value) async throws(Failure) -> Value {
    try await withTaskExecutorPreference(SerialQueueExecutor()) { () async throws(Failure) -> Value in
        try body()
    }
}

/// A task executor that runs its jobs on a private serial Dispatch queue. Such a queue gets a
/// thread of its own when it needs one (it does not share the width-limited pool of
/// Dispatch's global concurrent queues), so work on it never waits for a busy core's pool.
final class SerialQueueExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "assets-picker tests: work off the cooperative pool")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
