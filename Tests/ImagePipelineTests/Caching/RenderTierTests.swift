import AssetsKit
import Foundation
@testable import ImagePipeline
import Synchronization
import Testing
import TestSupport

@Suite("The render queue's tiers: a visible cell's first image, then sharp upgrades, then prefetch")
struct RenderTierTests {
    static let photo = "A_camera_exif/goexif__sample1.jpg" // 500x375, embedded thumbnail
    let request = ImageRequest(targetSize: PixelSize(width: 128, height: 128), contentMode: .fill, deliveryMode: .highQualityFormat)

    func key(_ name: String) -> RenditionKey {
        RenditionKey(source: SourceVersion(assetKey: name, byteSize: 1, modificationTime: 0), request: request)
    }

    @Test("a queued visible-first render starts before queued visible-sharp and prefetch renders, whatever the order they came in")
    func tierOrder() async throws {
        let scheduler = RenderScheduler(width: 1)
        let holder = try await scheduler.acquire(for: key("holder"), priority: .visibleFirst)
        let started = StartLog()
        var tasks: [Task<Void, Error>] = []
        for (name, priority) in [("prefetch", RenderPriority.prefetch), ("sharp", .visibleSharp), ("first", .visibleFirst)] {
            tasks.append(Task {
                let granted = try await scheduler.acquire(for: key(name), priority: priority)
                started.note(name)
                await scheduler.release(granted)
            })
            try await HangGuard.waitUntil("\(name) queued") { await scheduler.waitingCount == tasks.count }
        }
        await scheduler.release(holder)
        for task in tasks { try await task.value }
        #expect(started.names == ["first", "sharp", "prefetch"])
    }

    @Test("a visible-first render starts while sharp upgrades fill every slot; a sharp upgrade waits for a free one")
    func firstNeverWaitsBehindSharp() async throws {
        let scheduler = RenderScheduler(width: 2)
        let sharp1 = try await scheduler.acquire(for: key("sharp1"), priority: .visibleSharp)
        let sharp2 = try await scheduler.acquire(for: key("sharp2"), priority: .visibleSharp)
        let first = try await scheduler.acquire(for: key("first"), priority: .visibleFirst)
        #expect(await scheduler.runningCount(.visibleFirst) == 1)
        let third = Task { try await scheduler.acquire(for: key("sharp3"), priority: .visibleSharp) }
        try await HangGuard.waitUntil("the third sharp upgrade queued") { await scheduler.waitingCount == 1 }
        await scheduler.release(first)
        await scheduler.release(sharp1)
        let thirdSlot = try await third.value
        #expect(thirdSlot.priority == .visibleSharp)
        await scheduler.release(sharp2)
        await scheduler.release(thirdSlot)
    }

    @Test("a waiting render that a more urgent caller joins moves up to that caller's tier")
    func promotion() async throws {
        let scheduler = RenderScheduler(width: 1)
        let holder = try await scheduler.acquire(for: key("holder"), priority: .visibleFirst)
        let started = StartLog()
        var tasks: [Task<Void, Error>] = []
        for (name, priority) in [("sharp", RenderPriority.visibleSharp), ("prefetched", .prefetch)] {
            tasks.append(Task {
                let granted = try await scheduler.acquire(for: key(name), priority: priority)
                started.note(name)
                await scheduler.release(granted)
            })
            try await HangGuard.waitUntil("\(name) queued") { await scheduler.waitingCount == tasks.count }
        }
        await scheduler.promote(key("prefetched"), to: .visibleFirst)
        await scheduler.release(holder)
        for task in tasks { try await task.value }
        #expect(started.names == ["prefetched", "sharp"])
    }

    /// A manager rendering one image at a time, its one slot taken by a held render of "busy"
    /// (running once this returns; `releaseHeld()` ends it), and the task waiting for that render.
    private func busyManager() async throws -> (TestRendering, CachingImageManager, Task<ImageResult?, Error>) {
        let rendering = TestRendering(holding: "busy")
        let manager = CachingImageManager(configuration: ImageManagerConfiguration(maxConcurrentRenders: 1), rendering: rendering)
        let busy = try await TestSources.source(Self.photo, key: "busy")
        let blocker = Task { try await manager.image(for: busy, request: request).first { _ in true } }
        try await HangGuard.waitUntil("the busy render's start") { rendering.started == ["busy"] }
        return (rendering, manager, blocker)
    }

    @Test("through the manager: a request marked as a sharp upgrade waits behind a later first image")
    func managerTiers() async throws {
        let (rendering, manager, blocker) = try await busyManager()
        let sharp = try await TestSources.source(Self.photo, key: "sharp")
        let first = try await TestSources.source(Self.photo, key: "first")
        var sharpUpgrade = request
        sharpUpgrade.priority = .visibleSharp
        let upgrade = Task { [sharpUpgrade] in try await manager.image(for: sharp, request: sharpUpgrade).first { _ in true } }
        try await HangGuard.waitUntil("the upgrade queued") { await manager.queuedRenderCount == 1 }
        let cell = Task { try await manager.image(for: first, request: request).first { _ in true } }
        try await HangGuard.waitUntil("the first image queued") { await manager.queuedRenderCount == 2 }
        rendering.releaseHeld()
        _ = try await (blocker.value, upgrade.value, cell.value)
        #expect(rendering.started == ["busy", "first", "sharp"])
    }

    @Test("through the manager: the final image after a degraded one is a sharp upgrade")
    func opportunisticFinalIsSharp() async throws {
        let (rendering, manager, blocker) = try await busyManager()
        let degraded = try await TestSources.source(Self.photo, key: "degraded")
        let first = try await TestSources.source(Self.photo, key: "first")
        var opportunistic = request
        opportunistic.deliveryMode = .opportunistic
        let both = Task { try await manager.image(for: degraded, request: opportunistic).reduce(into: [ImageResult]()) { $0.append($1) } }
        try await HangGuard.waitUntil("the final render after the degraded image queued") { await manager.queuedRenderCount == 1 }
        let cell = Task { try await manager.image(for: first, request: request).first { _ in true } }
        try await HangGuard.waitUntil("the first image queued") { await manager.queuedRenderCount == 2 }
        rendering.releaseHeld()
        let delivered = try await both.value
        _ = try await (blocker.value, cell.value)
        #expect(delivered.map(\.isDegraded) == [true, false])
        #expect(rendering.started == ["busy", "first", "degraded"])
    }
}

/// The names of renders in the order they were granted a slot.
final class StartLog: Sendable {
    private let entries = Mutex<[String]>([])
    func note(_ name: String) { entries.withLock { $0.append(name) } }
    var names: [String] { entries.withLock { $0 } }
}
