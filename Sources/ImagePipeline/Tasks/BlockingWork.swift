import Dispatch

/// Runs blocking work (a libvips decode, a header read) on a thread outside Swift's cooperative
/// pool, so it never holds one of the few threads that everything async shares.
///
/// Work says what it is (``Kind``) and waits only for threads of its kind. Renders run on
/// Dispatch's user-initiated global queue, whose pool has about as many threads as cores, which
/// work that keeps the CPU busy fills: with two cores, a photo's header read queued behind eight
/// renders of 6 s waited 24 s (the user-interactive queue shares that pool). Brief work has
/// threads of its own (`BriefWorkThreads`).
public enum BlockingWork {
    /// What a piece of blocking work is, which decides the threads it waits for.
    public enum Kind: Sendable {
        /// A decode, an encode or a render: up to seconds of CPU for a large photo.
        case rendering
        /// A header, an EXIF block, a chunk of a file: milliseconds, which must not wait behind
        /// renders (an album list behind a large photo being opened).
        case brief
    }

    /// Runs `work` on a thread of `kind`'s pool and returns what it returns.
    public static func run<Value: Sendable>(_ kind: Kind, _ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try Task.checkCancellation()
        return try await withCheckedThrowingContinuation { continuation in
            let run: @Sendable () -> Void = { continuation.resume(with: Result { try work() }) }
            switch kind {
            case .rendering: DispatchQueue.global(qos: .userInitiated).async(execute: run)
            case .brief: BriefWorkThreads.shared.async(run)
            }
        }
    }
}
