import Synchronization

/// Runs an indexed library's previews in the background, one run at a time
/// (``IndexedLibrary/makePreviewsInBackground()``).
///
/// A request while a run is under way does not queue a second run behind it: the run stops
/// taking photos, finishes the renders it started, and a new run plans again from the index, so
/// photos that came meanwhile — the newest — are still made first.
final class BackgroundPreviews: Sendable {
    /// A run: given a test of whether it should stop and let the next one plan again.
    typealias Run = @Sendable (_ isInterrupted: @escaping @Sendable () -> Bool) async -> Void

    private struct State {
        var task: Task<Void, Never>?
        /// Whether a run is wanted that has not started yet.
        var isWanted = false
        /// Counts the loops started, so one that was stopped never clears its successor.
        var generation = 0
    }

    private let state = Mutex(State())

    /// Asks for a run of `run`: starts one, or has the one under way make way for it.
    func request(_ run: @escaping Run) {
        state.withLock { state in
            state.isWanted = true
            guard state.task == nil else { return }
            state.generation += 1
            let generation = state.generation
            state.task = Task(priority: .utility) { [self] in
                while !Task.isCancelled, takeWish(generation) {
                    await run { [self] in self.state.withLock { $0.isWanted } }
                }
            }
        }
    }

    /// Cancels the run under way, if any, and returns once it has stopped.
    func stop() async {
        let task = state.withLock { state in
            defer {
                state.task = nil
                state.isWanted = false
                state.generation += 1
            }
            return state.task
        }
        task?.cancel()
        await task?.value
    }

    /// Waits until no run is wanted or under way.
    func waitUntilIdle() async {
        while let task = state.withLock({ $0.task }) {
            await task.value
        }
    }

    /// Takes the wish for a run (`true`), or ends the loop of `generation` when there is none.
    private func takeWish(_ generation: Int) -> Bool {
        state.withLock { state in
            guard state.generation == generation else { return false }
            if state.isWanted {
                state.isWanted = false
                return true
            }
            state.task = nil
            return false
        }
    }
}
