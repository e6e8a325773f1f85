import AssetsKit
import ImagePipeline
import Synchronization

/// Real libvips renders that wait until the test lets them go: a decode as slow as the test
/// needs, whatever the machine's load.
final class HeldRendering: ImageRendering {
    private let real = LibvipsImageRendering()
    private let state = Mutex<(started: Int, released: Bool, waiting: [CheckedContinuation<Void, Never>])>((0, false, []))

    /// How many renders have started.
    var started: Int { state.withLock { $0.started } }

    /// Lets held renders, and those that come later, go on.
    func release() {
        let waiting = state.withLock { state in
            state.released = true
            defer { state.waiting = [] }
            return state.waiting
        }
        waiting.forEach { $0.resume() }
    }

    func render(_ source: ImageSourceFile, request: ImageRequest) async throws -> ImageResult {
        await withCheckedContinuation { continuation in
            let released = state.withLock { state in
                state.started += 1
                if !state.released { state.waiting.append(continuation) }
                return state.released
            }
            if released { continuation.resume() }
        }
        return try await real.render(source, request: request)
    }

    func quickImage(_ source: ImageSourceFile, request: ImageRequest) -> ImageResult? {
        real.quickImage(source, request: request)
    }
}
