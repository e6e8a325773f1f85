import HTTPTypes
import Synchronization

/// Ends the wait for one piece of a session's image work before it ends: its client left
/// (``ClientDeparture``), or its session's budget gave its place to a more urgent image
/// (``SessionRenderBudget``). The render itself goes on only if another request shares it.
final class RenderStop: Sendable {
    /// Why the wait ended early.
    enum Reason: Sendable {
        case clientLeft
        case superseded

        /// What the request answers (if anyone is left to read it), in one line.
        var error: APIError {
            switch self {
            case .clientLeft:
                // nginx's "client closed request": nobody reads it, a log may.
                return APIError(HTTPResponse.Status(code: 499, reasonPhrase: "Client Closed Request"), code: "clientLeft",
                                "The client closed the connection before its image was ready.")
            case .superseded:
                var refusal = APIError(.tooManyRequests, code: "renderSuperseded",
                                       "More urgent images of this session took this one's place; ask for it again when it is on screen.")
                refusal.headers[.retryAfter] = "1"
                return refusal
            }
        }
    }

    private let state = Mutex<(reason: Reason?, waiter: CheckedContinuation<Reason?, Never>?)>((nil, nil))

    /// Why the stop fired, if it has.
    var firedReason: Reason? { state.withLock { $0.reason } }

    /// Ends the wait for `reason` (the first reason given counts).
    func fire(_ reason: Reason) {
        let waiter = state.withLock { state -> CheckedContinuation<Reason?, Never>? in
            guard state.reason == nil else { return nil }
            state.reason = reason
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: reason)
    }

    /// The result of `operation`, unless the stop fires first: then its reason's error is
    /// thrown at once and `operation` is cancelled.
    func racing<Value: Sendable>(_ operation: @escaping @Sendable () async throws -> Value) async throws -> Value {
        try await withThrowingTaskGroup(of: Value?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                guard let reason = await self.reason() else { return nil }
                throw reason.error
            }
            defer { group.cancelAll() }
            while let next = try await group.next() {
                if let value = next { return value }
            }
            throw CancellationError()
        }
    }

    /// Waits for the stop; `nil` when the waiting task is cancelled first.
    private func reason() async -> Reason? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let fired: Reason?? = state.withLock { state in
                    if let reason = state.reason { return .some(reason) }
                    if Task.isCancelled { return .some(nil) }
                    state.waiter = continuation
                    return .none
                }
                if let fired { continuation.resume(returning: fired) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: nil)
        }
    }
}
