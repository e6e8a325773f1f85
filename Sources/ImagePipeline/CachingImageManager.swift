import AssetsKit
import Foundation
import Synchronization

/// Delivers images of assets fast and frugally: the PHCachingImageManager role.
///
/// A request is answered from the memory cache, then the disk cache, then by rendering the
/// original. Identical requests in flight share one render; renders run a bounded number at
/// a time in three tiers (`RenderPriority`): a visible cell's first image, then the sharp
/// upgrade of one already shown, then prefetch, and within a budget of the originals' pixels
/// (``ImageManagerConfiguration/maxConcurrentDecodePixels``); ``startCaching(_:request:)`` warms the caches
/// for the grid cells about to appear without ever delaying a visible request.
public final class CachingImageManager: Sendable {
    public let memoryCache: MemoryImageCache
    public let diskCache: DiskImageCache?
    /// What makes the images (an indexed library makes its previews through it too).
    public let rendering: any ImageRendering
    let scheduler: RenderScheduler
    let coalescer = RenderCoalescer()
    let prefetches = Mutex<[RenditionKey: Task<Void, Never>]>([:])
    private let renders = Mutex(0)

    /// - Parameters:
    ///   - configuration: Memory budget, render concurrency and the pixels renders may decode at once.
    ///   - diskCache: Where renditions are kept across runs, if anywhere.
    ///   - rendering: What makes the images.
    public init(configuration: ImageManagerConfiguration = ImageManagerConfiguration(), diskCache: DiskImageCache? = nil,
                rendering: any ImageRendering = LibvipsImageRendering()) {
        memoryCache = MemoryImageCache(byteLimit: configuration.memoryCacheBytes)
        self.diskCache = diskCache
        self.rendering = rendering
        scheduler = RenderScheduler(width: configuration.maxConcurrentRenders, pixelBudget: configuration.maxConcurrentDecodePixels)
    }

    /// Renders `source` for `request`.
    ///
    /// With `DeliveryMode.opportunistic` the stream first yields a degraded image — a smaller
    /// cached rendition or the embedded EXIF thumbnail — when one is at hand, and always ends
    /// with exactly one final image. `DeliveryMode.highQualityFormat` yields the final image
    /// only; `DeliveryMode.fastFormat` yields one image, the quickest available (a smaller
    /// cached rendition, else the embedded thumbnail whatever its size, else one rendered with
    /// `ResizeMode.fast`). A cache hit is one final image in every mode. Cancelling the
    /// consuming task stops delivery, and the work too unless another request shares it (a
    /// render still waiting for its turn leaves the queue at once).
    ///
    /// The final image renders in the tier `ImageRequest.priority` gives, no more urgent than
    /// `RenderPriority.visibleSharp` when a degraded image came first; a fast request's always
    /// as `RenderPriority.visibleFirst`.
    ///
    /// A fill larger than the original is rendered as `ImageRequest.bounded(byOriginal:)` gives it.
    public func image(for source: ImageSourceFile, request: ImageRequest) -> AsyncThrowingStream<ImageResult, Error> {
        .producing { [self] continuation in
            try await deliver(source, request.bounded(byOriginal: source.pixelSize)) { continuation.yield($0) }
        }
    }

    /// How many renders wait for their turn now (those running are not counted).
    public var queuedRenderCount: Int {
        get async { await scheduler.waitingCount }
    }

    /// The number of renders started so far (cache hits and coalesced requests do not count).
    public var renderCount: Int {
        get async { renders.withLock { $0 } }
    }

    private func deliver(_ source: ImageSourceFile, _ request: ImageRequest, yield: (ImageResult) -> Void) async throws {
        let key = RenditionKey(source: source.version, request: request)
        if let cached = cachedImage(for: key, keepingInMemory: request.keepsInMemory) {
            yield(cached)
            return
        }
        switch request.deliveryMode {
        case .opportunistic:
            var priority = request.priority
            if var quick = quickImage(of: source, for: request) {
                quick.isDegraded = true
                yield(quick)
                priority = min(priority, .visibleSharp)
            }
            yield(try await rendition(key, of: source, for: request, priority: priority))
        case .highQualityFormat:
            yield(try await rendition(key, of: source, for: request, priority: request.priority))
        case .fastFormat:
            // The quickest answer: an embedded thumbnail even when it is larger than the target
            // (a 160-pixel EXIF thumbnail for a 112-pixel cell), rather than a decode.
            if var quick = quickImage(of: source, for: request, largerAllowed: true) {
                quick.isDegraded = false
                yield(quick)
            } else {
                var fast = request
                fast.resizeMode = .fast
                yield(try await rendition(RenditionKey(source: source.version, request: fast), of: source, for: fast,
                                          priority: .visibleFirst))
            }
        }
    }

    /// The cached image for `key`: memory first, then disk (which refills memory when
    /// `keepingInMemory`).
    func cachedImage(for key: RenditionKey, keepingInMemory: Bool) -> ImageResult? {
        if var hit = memoryCache.image(for: key) {
            hit.source = .memoryCache
            return hit
        }
        guard let hit = diskCache?.image(for: key) else { return nil }
        if keepingInMemory { memoryCache.store(hit, for: key) }
        return hit
    }

    /// Something smaller than `request` asks for, at hand without decoding the original: the
    /// largest cached rendition of the same file version, else its embedded EXIF thumbnail.
    public func quickImage(of source: ImageSourceFile, for request: ImageRequest) -> ImageResult? {
        quickImage(of: source, for: request, largerAllowed: true)
    }

    /// ``quickImage(of:for:)`` read and encoded on a blocking-work thread (for a caller on an
    /// event loop), marked degraded.
    public func degradedQuickImage(of source: ImageSourceFile, for request: ImageRequest) async -> ImageResult? {
        var quick = try? await BlockingWork.run(.brief) { [self] in quickImage(of: source, for: request) }
        quick?.isDegraded = true
        return quick
    }

    /// ``quickImage(of:for:)``; with `largerAllowed` the embedded thumbnail is taken whatever its
    /// size (for `DeliveryMode.fastFormat`, where it is the answer rather than a stand-in).
    private func quickImage(of source: ImageSourceFile, for request: ImageRequest, largerAllowed: Bool) -> ImageResult? {
        let final = Self.finalSize(of: source, for: request)
        if var smaller = memoryCache.largestRendition(of: source.version, smallerThan: final) {
            smaller.source = .memoryCache
            return smaller
        }
        guard let thumbnail = rendering.quickImage(source, request: request),
              largerAllowed || thumbnail.pixelSize.area < final.area else { return nil }
        return thumbnail
    }

    /// The size the final image of `request` will have: the target cropped (fill, bounded by
    /// the original as `ImageRequest.bounded(byOriginal:)` says) or the original fitted into
    /// it (fit), never enlarged.
    static func finalSize(of source: ImageSourceFile, for request: ImageRequest) -> PixelSize {
        if request.isFullResolution { return source.pixelSize }
        switch request.contentMode {
        case .fit:
            return source.pixelSize.fitting(in: request.targetSize)
        case .fill:
            return request.bounded(byOriginal: source.pixelSize).targetSize
        }
    }

    /// The final rendition, shared with identical requests in flight, rendered when its turn
    /// comes at `priority` (or sooner, when a more urgent caller joins) and kept in the caches
    /// (full-resolution images are not cached; the memory cache only when the request
    /// `ImageRequest.keepsInMemory`).
    func rendition(_ key: RenditionKey, of source: ImageSourceFile, for request: ImageRequest,
                   priority: RenderPriority) async throws -> ImageResult {
        try await coalescer.result(for: key, joined: { [scheduler] in
            await scheduler.promote(key, to: priority)
        }) { [self] in
            if let cached = cachedImage(for: key, keepingInMemory: request.keepsInMemory) { return cached }
            // An original kept elsewhere arrives before the render takes its place in the queue
            // (unless its preview is large enough for this image).
            if !source.rendersFromPreview(request) {
                try await source.fetchOriginal(allowingNetwork: request.isNetworkAccessAllowed)
            }
            let granted = try await scheduler.acquire(for: key, priority: priority, pixels: source.pixelSize.area, requester: request.requester)
            renders.withLock { $0 += 1 }
            let outcome: Result<ImageResult, Error>
            do {
                outcome = .success(try await rendering.render(source, request: request))
            } catch {
                outcome = .failure(error)
            }
            await scheduler.release(granted)
            var result = try outcome.get()
            result.isDegraded = false
            if !request.isFullResolution {
                if request.keepsInMemory { memoryCache.store(result, for: key) }
                diskCache?.store(result, for: key)
            }
            return result
        }
    }
}
