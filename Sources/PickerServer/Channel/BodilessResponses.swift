import NIOCore
import NIOHTTP1

/// Keeps the answers to a connection's `HEAD` requests without a body, in the order the requests came.
///
/// SwiftNIO's request decoder, when paired with its response encoder, tells it each request's
/// method so that a `HEAD` answer goes out bodiless. ``PickerHTTPChannel`` leaves them unpaired:
/// ``RenditionFastPath`` writes its answers below the encoder, which would leave the pair's
/// record of methods out of step. So ``RenditionFastPath`` tells this record of the requests it
/// passes on, and it filters their answers' parts as the pair would: a `HEAD` answer keeps its
/// head (with the length a `GET` would have), a body part is refused, and the end writes no
/// chunk terminator. Answers to other methods pass unchanged (a `CONNECT`, which no route
/// takes, is answered as an error with its body, as HTTP frames an answer that is not a 2xx).
struct BodilessResponses {
    /// For each request passed on and not yet answered, oldest first: whether its answer has no body.
    private var pending = CircularBuffer<Bool>(initialCapacity: 4)
    /// Whether the answer going out now has no body.
    private var suppressing = false

    /// A request was passed on.
    mutating func requested(_ method: HTTPMethod) {
        pending.append(method == .HEAD)
    }

    /// What becomes of one part of an answer going out.
    enum Verdict {
        /// It goes out as it is.
        case pass
        /// A body part of a bodiless answer: it is refused (its promise failed with ``BodyNotAllowed``).
        case refuse
        /// The end of a bodiless answer, which the encoder may have framed as chunked (a `GET`
        /// without a length would be): no terminator goes out, only a write of no bytes, so that
        /// the end's promise completes in order.
        case endWithoutTerminator
    }

    /// What becomes of `part`, the next part of the answers going out in request order.
    mutating func verdict(on part: HTTPServerResponsePart) -> Verdict {
        switch part {
        case .head(let head):
            // A non-final informational answer (1xx but 101) comes before the request's own answer.
            let informational = (100..<200).contains(head.status.code) && head.status.code != 101
            if !informational { suppressing = pending.popFirst() ?? false }
            return .pass
        case .body:
            return suppressing ? .refuse : .pass
        case .end:
            guard suppressing else { return .pass }
            suppressing = false
            return .endWithoutTerminator
        }
    }

    /// The refusal of a body part written for a bodiless answer.
    struct BodyNotAllowed: Error {}
}
