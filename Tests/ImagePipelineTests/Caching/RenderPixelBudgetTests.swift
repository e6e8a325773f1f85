import AssetsKit
import Foundation
@testable import ImagePipeline
import Testing
import TestSupport

@Suite("The render queue's pixel budget: renders of huge originals wait for each other, whatever the free slots")
struct RenderPixelBudgetTests {
    let request = ImageRequest(targetSize: PixelSize(width: 128, height: 128), contentMode: .fill, deliveryMode: .highQualityFormat)

    func key(_ name: String) -> RenditionKey {
        RenditionKey(source: SourceVersion(assetKey: name, byteSize: 1, modificationTime: 0), request: request)
    }

    @Test("a render that would take the running pixels over the budget waits, with slots free, until one ends")
    func waitsForPixels() async throws {
        let scheduler = RenderScheduler(width: 4, pixelBudget: 100)
        let big = try await scheduler.acquire(for: key("big"), priority: .visibleFirst, pixels: 80)
        let second = Task { try await scheduler.acquire(for: key("second"), priority: .visibleFirst, pixels: 80) }
        try await HangGuard.waitUntil("the second render queued") { await scheduler.waitingCount == 1 }
        #expect(await scheduler.runningCount(.visibleFirst) == 1)
        await scheduler.release(big)
        let slot = try await second.value
        #expect(slot.pixels == 80)
        #expect(await scheduler.runningCount(.visibleFirst) == 1)
        await scheduler.release(slot)
    }

    @Test("renders that fit the budget together run side by side")
    func smallOnesTogether() async throws {
        let scheduler = RenderScheduler(width: 4, pixelBudget: 100)
        var slots: [RenderScheduler.RenderSlot] = []
        for name in ["a", "b", "c", "d"] {
            slots.append(try await scheduler.acquire(for: key(name), priority: .visibleFirst, pixels: 25))
        }
        #expect(await scheduler.runningCount(.visibleFirst) == 4)
        #expect(await scheduler.waitingCount == 0)
        for slot in slots { await scheduler.release(slot) }
    }

    @Test("a render larger than the whole budget runs when nothing else does, and alone")
    func oversizedAlone() async throws {
        let scheduler = RenderScheduler(width: 4, pixelBudget: 100)
        let small = try await scheduler.acquire(for: key("small"), priority: .visibleFirst, pixels: 10)
        let huge = Task { try await scheduler.acquire(for: key("huge"), priority: .visibleFirst, pixels: 500) }
        try await HangGuard.waitUntil("the huge render queued behind the small one") { await scheduler.waitingCount == 1 }
        await scheduler.release(small)
        let hugeSlot = try await huge.value
        let next = Task { try await scheduler.acquire(for: key("next"), priority: .visibleFirst, pixels: 10) }
        try await HangGuard.waitUntil("a small render queued behind the huge one") { await scheduler.waitingCount == 1 }
        await scheduler.release(hugeSlot)
        await scheduler.release(try await next.value)
    }

    @Test("a smaller render of the same tier asking later does not overtake one waiting for pixels")
    func noOvertaking() async throws {
        let scheduler = RenderScheduler(width: 4, pixelBudget: 100)
        let running = try await scheduler.acquire(for: key("running"), priority: .visibleFirst, pixels: 60)
        let started = StartLog()
        let big = Task {
            let slot = try await scheduler.acquire(for: key("big"), priority: .visibleFirst, pixels: 60)
            started.note("big")
            return slot
        }
        try await HangGuard.waitUntil("the big render queued") { await scheduler.waitingCount == 1 }
        let small = Task {
            let slot = try await scheduler.acquire(for: key("small"), priority: .visibleFirst, pixels: 10)
            started.note("small")
            return slot
        }
        try await HangGuard.waitUntil("the small render queued behind it") { await scheduler.waitingCount == 2 }
        await scheduler.release(running)
        let bigSlot = try await big.value, smallSlot = try await small.value
        #expect(started.names == ["big", "small"])
        await scheduler.release(bigSlot)
        await scheduler.release(smallSlot)
    }

    @Test("through the manager: with room for one original's pixels, a second render waits for the first, one slot of two taken")
    func managerBudget() async throws {
        let rendering = TestRendering(holding: "first")
        let photo = "A_camera_exif/goexif__sample1.jpg" // 500x375
        let first = try await TestSources.source(photo, key: "first")
        let second = try await TestSources.source(photo, key: "second")
        let manager = CachingImageManager(
            configuration: ImageManagerConfiguration(maxConcurrentRenders: 2, maxConcurrentDecodePixels: first.pixelSize.area * 3 / 2),
            rendering: rendering)
        let held = Task { try await manager.image(for: first, request: request).first { _ in true } }
        try await HangGuard.waitUntil("the first render's start") { rendering.started == ["first"] }
        let waiting = Task { try await manager.image(for: second, request: request).first { _ in true } }
        try await HangGuard.waitUntil("the second render queued for pixels") { await manager.queuedRenderCount == 1 }
        #expect(rendering.started == ["first"])
        rendering.releaseHeld()
        _ = try await (held.value, waiting.value)
        #expect(rendering.started == ["first", "second"])
    }

    @Test("the default budget is a sixteenth of memory in pixels: a 200-MP photo alone with 2 GB")
    func defaultBudget() {
        #expect(RenderPixelBudget.pixels(forMemory: 2 << 30) == 134_217_728)
        #expect(RenderPixelBudget.forThisMachine > 0)
    }
}
