import AssetsKit
import ImagePipeline
import Synchronization

/// A renderer for tests: real libvips renders, optionally held until the test lets them go,
/// with a log of what started in which order.
public final class TestRendering: ImageRendering {
    private let heldPrefix: String?
    private let real = LibvipsImageRendering()
    private let log = Mutex<[String]>([])
    private let hold = Mutex<(released: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    /// - Parameter heldPrefix: Renders of asset keys with this prefix (`""`: every render) wait
    ///   for ``releaseHeld()``: a decode as slow as the test needs, whatever the machine's load.
    public init(holding heldPrefix: String? = nil) {
        self.heldPrefix = heldPrefix
    }

    /// The asset keys of the renders started, in order.
    public var started: [String] { log.withLock { $0 } }

    /// Lets held renders (and those that come later) go on.
    public func releaseHeld() {
        let waiting = hold.withLock { state in
            state.released = true
            defer { state.waiting = [] }
            return state.waiting
        }
        waiting.forEach { $0.resume() }
    }

    public func render(_ source: ImageSourceFile, request: ImageRequest) async throws -> ImageResult {
        log.withLock { $0.append(source.assetKey) }
        if let heldPrefix, source.assetKey.hasPrefix(heldPrefix) {
            await withCheckedContinuation { continuation in
                let released = hold.withLock { state in
                    if !state.released { state.waiting.append(continuation) }
                    return state.released
                }
                if released { continuation.resume() }
            }
        }
        return try await real.render(source, request: request)
    }

    public func quickImage(_ source: ImageSourceFile, request: ImageRequest) -> ImageResult? {
        real.quickImage(source, request: request)
    }
}
