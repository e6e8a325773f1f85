import AssetsKit
import Synchronization

/// Each session's prefetch in progress, and the picker pages open on each session.
///
/// A session's new prefetch supersedes its previous one, as PhotoKit's caching window does when
/// the grid scrolls: what the last one had not rendered yet is stopped, so the work queued for a
/// session never exceeds one request's bounds. Prefetch is for a page someone looks at: when the
/// last page of a session goes (its event stream closes: the tab was closed, the browser quit, the
/// session ended), what its prefetch had not rendered yet is stopped too, rather than rendering
/// rows nobody will scroll to.
final class PrefetchLedger: Sendable {
    private struct State {
        var prefetches: [String: (assets: [Asset], request: ImageRequest)] = [:]
        var openPages: [String: Int] = [:]
    }

    private let state = Mutex(State())

    /// Starts `assets` for `request` on `library` for `session`, stopping that session's previous prefetch.
    /// - Parameter liveSessions: Sessions whose entries are kept; the others' are forgotten.
    func start(_ assets: [Asset], request: ImageRequest, session: String, on library: any PhotoLibrary,
               keeping liveSessions: (String) -> Bool) async {
        let previous = state.withLock { state in
            state.prefetches = state.prefetches.filter { $0.key == session || liveSessions($0.key) }
            return state.prefetches.updateValue((assets, request), forKey: session)
        }
        if let previous {
            let kept = Set(assets.map(\.id.uuid))
            let stopped = previous.request == request ? previous.assets.filter { !kept.contains($0.id.uuid) } : previous.assets
            if !stopped.isEmpty { await library.stopCaching(stopped, request: previous.request) }
        }
        await library.startCaching(assets, request: request)
    }

    /// A page of `session` opened; call ``PageVisit/end(on:)`` on the visit when it goes.
    func pageOpened(session: String) -> PageVisit {
        state.withLock { $0.openPages[session, default: 0] += 1 }
        return PageVisit(ledger: self, session: session)
    }

    /// The page of a visit went: the session's prefetch stops when it was the session's last page.
    fileprivate func pageClosed(session: String, on library: any PhotoLibrary) async {
        let stopped = state.withLock { state -> (assets: [Asset], request: ImageRequest)? in
            let remaining = (state.openPages[session] ?? 1) - 1
            state.openPages[session] = remaining > 0 ? remaining : nil
            return remaining > 0 ? nil : state.prefetches.removeValue(forKey: session)
        }
        if let stopped { await library.stopCaching(stopped.assets, request: stopped.request) }
    }
}

/// One open picker page of a session (its event stream), ended once.
final class PageVisit: Sendable {
    private let ledger: PrefetchLedger
    private let session: String
    private let ended = Mutex(false)

    fileprivate init(ledger: PrefetchLedger, session: String) {
        self.ledger = ledger
        self.session = session
    }

    /// The page went; later calls do nothing.
    func end(on library: any PhotoLibrary) async {
        let first = ended.withLock { ended in
            defer { ended = true }
            return !ended
        }
        if first { await ledger.pageClosed(session: session, on: library) }
    }
}
