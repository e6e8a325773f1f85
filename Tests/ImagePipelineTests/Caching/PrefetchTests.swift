import AssetsKit
import Foundation
@testable import ImagePipeline
import Testing
import TestSupport

@Suite("Prefetching warms the caches and never delays a visible request")
struct PrefetchTests {
    let request = ImageRequest(targetSize: PixelSize(width: 128, height: 128), contentMode: .fill)

    @Test("a visible request starts before queued prefetch work, with a slow decode")
    func visibleFirst() async throws {
        // Prefetch renders are held until the visible one is done: however slow the machine, the first cannot end and free its slot.
        let rendering = TestRendering(holding: "prefetch-")
        let manager = CachingImageManager(configuration: ImageManagerConfiguration(maxConcurrentRenders: 2), rendering: rendering)
        let sources = try await (0..<8).asyncMap { try await TestSources.source("A_camera_exif/pillow__flower.jpg", key: "prefetch-\($0)") }
        let visible = try await TestSources.source("A_camera_exif/pillow__flower.jpg", key: "visible")
        manager.startCaching(sources, request: request)
        try await HangGuard.waitUntil("the first prefetch render's start") { !rendering.started.isEmpty }
        let results = try await manager.image(for: visible, request: ImageRequest(targetSize: request.targetSize, contentMode: .fill,
                                                                                  deliveryMode: .highQualityFormat)).reduce(into: []) { $0.append($1) }
        #expect(results.count == 1)
        let order = rendering.started
        let position = try #require(order.firstIndex(of: "visible"))
        #expect(position == 1, "only the prefetch already running may start before it: \(order)")
        manager.stopCachingAll()
        rendering.releaseHeld()
    }

    @Test("prefetched images are then served from the memory cache")
    func prefetchFillsCache() async throws {
        let manager = CachingImageManager()
        let sources = try await ["A_camera_exif/pillow__flower.jpg", "A_camera_exif/jhead__sony.jpg"].asyncMap { try await TestSources.source($0) }
        manager.startCaching(sources, request: request)
        try await HangGuard.waitUntil("the end of prefetching") { manager.prefetchCount == 0 }
        for source in sources {
            let results = try await manager.image(for: source, request: request).reduce(into: []) { $0.append($1) }
            #expect(results.map(\.source) == [.memoryCache])
        }
        #expect(await manager.renderCount == 2)
    }

    @Test("stopCaching cancels prefetch work that has not started")
    func stopCaching() async throws {
        let rendering = TestRendering(holding: "p")
        let manager = CachingImageManager(configuration: ImageManagerConfiguration(maxConcurrentRenders: 2), rendering: rendering)
        let sources = try await (0..<6).asyncMap { try await TestSources.source("A_camera_exif/jhead__sony.jpg", key: "p\($0)") }
        manager.startCaching(sources, request: request)
        // One prefetch render runs (held), the other five wait for a slot.
        try await HangGuard.waitUntil("one prefetch render started, five queued") {
            let waiting = await manager.scheduler.waitingCount
            return rendering.started.count == 1 && waiting == 5
        }
        let running = try #require(rendering.started.first)
        manager.stopCaching(sources.filter { $0.assetKey != running }, request: request)
        try await HangGuard.waitUntil("the stopped renders leaving the queue") { await manager.scheduler.waitingCount == 0 }
        rendering.releaseHeld()
        try await HangGuard.waitUntil("the end of the running prefetch") { manager.prefetchCount == 0 }
        #expect(rendering.started == [running])
        #expect(await manager.renderCount == 1)
    }
}

extension Sequence {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var mapped: [T] = []
        for element in self { mapped.append(try await transform(element)) }
        return mapped
    }
}
