import Foundation

/// Runs blocking socket work on a thread of its own. The server under test shares the process's
/// few cooperative threads: a test blocking one of them in `recv` or `send` could starve the
/// very server it waits for.
public enum OwnThread {
    public static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }
}
