import Dispatch

/// Runs blocking work (a libvips decode, a header read) on a Dispatch thread, so it never
/// holds one of the few threads of Swift's cooperative pool that everything async shares.
public enum BlockingWork {
    public static func run<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try Task.checkCancellation()
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(with: Result { try work() })
            }
        }
    }
}
