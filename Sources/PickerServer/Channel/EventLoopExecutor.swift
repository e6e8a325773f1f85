import NIOCore
import NIOPosix

extension PickerServer {
    /// Makes SwiftNIO's event loops the threads Swift concurrency runs on, for the whole process,
    /// so that a request's async handler runs on the thread that reads and writes its
    /// connection instead of being handed between the event loops and the cooperative pool at
    /// every step (the hand-offs cost more than serving a cached thumbnail). Blocking work
    /// (decoding, SQLite) already runs on Dispatch threads of its own, never on these.
    ///
    /// Call it once, on the main thread, first thing in the program, before other async work starts.
    /// - Returns: Whether the event loops took over (not on platforms where SwiftNIO cannot).
    @discardableResult
    public static func runConcurrencyOnEventLoops() -> Bool {
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }
}
