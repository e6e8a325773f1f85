import Synchronization

/// The picker pages open on each session, and each session's prefetch.
///
/// A session's new prefetch supersedes its previous one, as PhotoKit's caching window does when
/// the grid scrolls, so the prefetch of a session never exceeds one request's bounds. Prefetch
/// is for a page someone looks at, and no connection waits for it: when the last page of a
/// session goes (its event stream closes: the tab was closed, the browser quit, the session
/// ended), its prefetch stops. The page's other work is bound to the connections that asked for
/// it and stops when they close (``ClientDeparture``): the page closes its event stream on
/// purpose while a first screen loads, and the thumbnails it waits for then must go on.
final class PickerPages: Sendable {
    private struct State {
        var prefetches: [String: (number: Int, task: Task<Void, Never>)] = [:]
        var openPages: [String: Int] = [:]
        var nextPrefetch = 0
    }

    private let state = Mutex(State())

    /// Runs `prefetch` as `session`'s prefetch, cancelling the one it had.
    func startPrefetch(session: String, _ prefetch: @escaping @Sendable () async -> Void) {
        let previous = state.withLock { state -> Task<Void, Never>? in
            state.nextPrefetch += 1
            let number = state.nextPrefetch
            let task = Task { [weak self] in
                await prefetch()
                self?.prefetchEnded(session: session, number: number)
            }
            return state.prefetches.updateValue((number, task), forKey: session)?.task
        }
        previous?.cancel()
    }

    /// Whether `session` has a prefetch under way.
    func isPrefetching(session: String) -> Bool { state.withLock { $0.prefetches[session] != nil } }

    /// A page of `session` opened; call ``PageVisit/end()`` on the visit when it goes.
    func pageOpened(session: String) -> PageVisit {
        state.withLock { $0.openPages[session, default: 0] += 1 }
        return PageVisit(pages: self, session: session)
    }

    /// A page of `session` went: when it was the last, the session's prefetch stops.
    fileprivate func pageClosed(session: String) {
        let prefetch = state.withLock { state -> Task<Void, Never>? in
            let remaining = (state.openPages[session] ?? 1) - 1
            state.openPages[session] = remaining > 0 ? remaining : nil
            return remaining > 0 ? nil : state.prefetches.removeValue(forKey: session)?.task
        }
        prefetch?.cancel()
    }

    private func prefetchEnded(session: String, number: Int) {
        state.withLock { state in
            if state.prefetches[session]?.number == number { state.prefetches[session] = nil }
        }
    }
}

/// One open picker page of a session (its event stream), ended once.
final class PageVisit: Sendable {
    private let pages: PickerPages
    private let session: String
    private let ended = Mutex(false)

    fileprivate init(pages: PickerPages, session: String) {
        self.pages = pages
        self.session = session
    }

    /// The page went; later calls do nothing.
    func end() {
        let first = ended.withLock { ended in
            defer { ended = true }
            return !ended
        }
        if first { pages.pageClosed(session: session) }
    }
}
