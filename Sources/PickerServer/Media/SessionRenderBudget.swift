import AssetsKit
import Synchronization

/// How many images one session may have asked for and not received yet
/// (``PickerServerLimits/rendersPerSession``), whoever asked and however: the picker page's
/// images, thumbnail batches and prefetch, and the client program's baseUrls. So a person — or
/// anyone holding a session's URL — cannot make the server do unbounded work by opening
/// connections or sending batches: a browser holds six connections to a server, far below the limit.
///
/// At the limit, a more urgent image takes the place of the oldest of the least urgent ones
/// (a visible cell's first image before a sharp upgrade before prefetch, see ``RenderPriority``),
/// which then stops at once; one no more urgent than any is refused with 429 before any work.
/// Renditions answered from memory never get here.
final class SessionRenderBudget: Sendable {
    private struct Entry {
        let ticket: Int
        let tier: RenderPriority
        let stop: RenderStop
    }

    private struct State {
        var sessions: [String: [Entry]] = [:]
        var nextTicket = 0
    }

    /// The `code` of the refusal when the budget is full.
    static let refusalCode = "tooManyRenders"

    let limit: Int
    private let state = Mutex(State())

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// A place for an image of `tier` for `session`, to give back with ``release(_:session:)``;
    /// `stop` fires if a more urgent image of the session takes the place later.
    /// - Throws: ``APIError`` 429, one line, when the session has `limit` images no less urgent.
    func admit(session: String, tier: RenderPriority, stop: RenderStop) throws(APIError) -> Int {
        let (ticket, superseded) = state.withLock { state -> (Int?, RenderStop?) in
            var entries = state.sessions[session, default: []]
            var superseded: RenderStop?
            if entries.count >= limit {
                guard let lowest = entries.map(\.tier).min(), lowest < tier,
                      let oldest = entries.firstIndex(where: { $0.tier == lowest }) else { return (nil, nil) }
                superseded = entries.remove(at: oldest).stop
            }
            state.nextTicket += 1
            entries.append(Entry(ticket: state.nextTicket, tier: tier, stop: stop))
            state.sessions[session] = entries
            return (state.nextTicket, superseded)
        }
        guard let ticket else {
            var refusal = APIError(.tooManyRequests, code: Self.refusalCode,
                                   "This session has \(limit) images being made already; ask again when some have arrived.")
            refusal.headers[.retryAfter] = "1"
            throw refusal
        }
        superseded?.fire(.superseded)
        return ticket
    }

    /// Gives back the place `ticket` of `session` held (nothing when it was superseded).
    func release(_ ticket: Int, session: String) {
        state.withLock { state in
            guard var entries = state.sessions[session], let index = entries.firstIndex(where: { $0.ticket == ticket }) else { return }
            entries.remove(at: index)
            state.sessions[session] = entries.isEmpty ? nil : entries
        }
    }

    /// Images admitted for `session` and not released.
    func count(for session: String) -> Int { state.withLock { $0.sessions[session]?.count ?? 0 } }
}
