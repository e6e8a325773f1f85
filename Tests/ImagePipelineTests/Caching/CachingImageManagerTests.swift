import AssetsKit
import Foundation
@testable import ImagePipeline
import Testing
import TestSupport

@Suite("CachingImageManager: delivery modes, coalescing, cancellation, caches")
struct CachingImageManagerTests {
    static let photo = "A_camera_exif/goexif__sample1.jpg" // 500x375, embedded thumbnail
    let thumbnail = ImageRequest(targetSize: PixelSize(width: 256, height: 256), contentMode: .fill)

    func collect(_ stream: AsyncThrowingStream<ImageResult, Error>) async throws -> [ImageResult] {
        var results: [ImageResult] = []
        for try await result in stream { results.append(result) }
        return results
    }

    @Test("opportunistic delivery yields the degraded image first and exactly one final image, last")
    func opportunistic() async throws {
        let manager = CachingImageManager()
        let source = try await TestSources.source(Self.photo)
        let results = try await collect(manager.image(for: source, request: thumbnail))
        #expect(results.map(\.isDegraded) == [true, false])
        #expect(results[0].source == .embeddedThumbnail)
        #expect(results[1].pixelSize == PixelSize(width: 256, height: 256))
        #expect(results[1].source == .rendered)
    }

    @Test("high-quality and fast delivery yield one image each", arguments: [DeliveryMode.highQualityFormat, .fastFormat])
    func singleAnswer(_ mode: DeliveryMode) async throws {
        let manager = CachingImageManager()
        var request = thumbnail
        request.deliveryMode = mode
        let results = try await collect(manager.image(for: try await TestSources.source(Self.photo), request: request))
        #expect(results.count == 1)
        #expect(results[0].isDegraded == false)
        if mode == .highQualityFormat { #expect(results[0].pixelSize == PixelSize(width: 256, height: 256)) }
        else { #expect(results[0].source == .embeddedThumbnail) } // the quickest answer at hand
    }

    @Test("fast delivery answers the embedded thumbnail even when it is larger than the target, with no render")
    func fastTakesLargerThumbnail() async throws {
        let rendering = TestRendering()
        let manager = CachingImageManager(rendering: rendering)
        let source = try await TestSources.source(Self.photo)
        let embedded = try #require(rendering.quickImage(source, request: thumbnail))
        // A cell smaller than the embedded thumbnail, as a 112-pixel desktop cell is beside a 160-pixel one.
        let side = min(embedded.pixelSize.width, embedded.pixelSize.height) - 1
        let request = ImageRequest(targetSize: PixelSize(width: side, height: side), contentMode: .fill, deliveryMode: .fastFormat)
        let results = try await collect(manager.image(for: source, request: request))
        #expect(results.map(\.source) == [.embeddedThumbnail])
        #expect(results[0].isDegraded == false)
        #expect(rendering.started.isEmpty, "no decode of the original")
    }

    @Test("fast delivery without an embedded thumbnail renders once, in fast resize mode")
    func fastWithoutThumbnail() async throws {
        let manager = CachingImageManager()
        let source = try await TestSources.source("E_formats/libheif__example.avif")
        var request = thumbnail
        request.deliveryMode = .fastFormat
        let results = try await collect(manager.image(for: source, request: request))
        #expect(results.count == 1)
        #expect(results[0].pixelSize == PixelSize(width: 256, height: 256))
    }

    @Test("a second request is a memory-cache hit: one final image, no new render")
    func memoryHit() async throws {
        let manager = CachingImageManager()
        let source = try await TestSources.source(Self.photo)
        _ = try await collect(manager.image(for: source, request: thumbnail))
        let again = try await collect(manager.image(for: source, request: thumbnail))
        #expect(again.map(\.source) == [.memoryCache])
        #expect(await manager.renderCount == 1)
    }

    @Test("identical requests in flight share one render, each caller gets its own answer")
    func coalescing() async throws {
        let rendering = TestRendering(holding: "")
        let manager = CachingImageManager(rendering: rendering)
        let source = try await TestSources.source(Self.photo)
        let request = ImageRequest(targetSize: thumbnail.targetSize, contentMode: .fill, deliveryMode: .highQualityFormat)
        let key = RenditionKey(source: source.version, request: request)
        let callers = (0..<5).map { _ in Task { try await manager.image(for: source, request: request).first { _ in true } } }
        // The render is held until all five wait on it, however slowly their tasks start.
        try await HangGuard.waitUntil("five callers waiting on the render") { await manager.coalescer.waiterCount(for: key) == 5 }
        rendering.releaseHeld()
        var results: [ImageResult] = []
        for caller in callers { results.append(try #require(try await caller.value)) }
        #expect(results.count == 5)
        #expect(results.allSatisfy { $0.source == .rendered }, "each got the shared render, not a cache hit after it")
        #expect(Set(results.map(\.data)).count == 1)
        #expect(await manager.renderCount == 1)
        #expect(rendering.started.count == 1)
    }

    @Test("cancelling one of two coalesced callers does not cancel the other")
    func cancellingOneCaller() async throws {
        let rendering = TestRendering(holding: "")
        let manager = CachingImageManager(rendering: rendering)
        let source = try await TestSources.source(Self.photo)
        let request = ImageRequest(targetSize: thumbnail.targetSize, contentMode: .fill, deliveryMode: .highQualityFormat)
        let key = RenditionKey(source: source.version, request: request)
        let first = Task { try await manager.image(for: source, request: request).first { _ in true } }
        let second = Task { try await manager.image(for: source, request: request).first { _ in true } }
        try await HangGuard.waitUntil("both callers waiting on the render") { await manager.coalescer.waiterCount(for: key) == 2 }
        first.cancel()
        let delivered = (try? await first.value) ?? nil
        #expect(delivered == nil, "a cancelled caller gets no image")
        rendering.releaseHeld()
        let survivor = try await second.value
        #expect(survivor?.pixelSize == PixelSize(width: 256, height: 256))
        #expect(await manager.renderCount == 1)
    }

    @Test("cancelling the only caller stops the render that was still waiting for a slot")
    func cancellingStopsWork() async throws {
        let rendering = TestRendering(holding: "busy")
        let manager = CachingImageManager(configuration: ImageManagerConfiguration(maxConcurrentRenders: 1), rendering: rendering)
        let busy = try await TestSources.source(Self.photo, key: "busy")
        let waiting = try await TestSources.source(Self.photo, key: "waiting")
        let request = ImageRequest(targetSize: thumbnail.targetSize, contentMode: .fill, deliveryMode: .highQualityFormat)
        let blocker = Task { try await manager.image(for: busy, request: request).first { _ in true } }
        try await HangGuard.waitUntil("the busy render's start") { rendering.started == ["busy"] }
        let cancelled = Task { try await manager.image(for: waiting, request: request).first { _ in true } }
        try await HangGuard.waitUntil("the second render queued for the slot") { await manager.scheduler.waitingCount == 1 }
        cancelled.cancel()
        _ = await cancelled.result
        try await HangGuard.waitUntil("the cancelled render leaving the queue") { await manager.scheduler.waitingCount == 0 }
        rendering.releaseHeld()
        _ = try await blocker.value
        #expect(rendering.started == ["busy"])
        #expect(await manager.renderCount == 1)
    }
}
