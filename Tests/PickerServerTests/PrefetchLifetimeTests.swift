import AssetsKit
import ImagePipeline
@testable import PickerServer
import Testing
import TestSupport

/// A session's prefetch renders rows for a page someone looks at: it stops with the session's
/// last open page, not at the end of rows nobody will scroll to.
@Suite struct PrefetchLifetimeTests {
    /// A server whose renders run one at a time and wait for ``TestRendering/releaseHeld()``.
    private struct Fixture {
        let rendering = TestRendering(holding: "")
        let manager: CachingImageManager
        let server: TestServer

        init() async throws {
            manager = CachingImageManager(configuration: ImageManagerConfiguration(maxConcurrentRenders: 1), rendering: rendering)
            // No heartbeat whose failed write would tell of a closed page: only the connection's departure can.
            var limits = PickerServerLimits.forTests
            limits.eventHeartbeat = .seconds(24 * 3_600)
            server = try await TestServer.indexed(limits: limits, imageManager: manager)
        }

        /// Four of the camera roll's photos.
        func photos() async throws -> [Asset] {
            let fetch = try await server.library.assets(in: try await server.library.cameraRoll().id, options: FetchOptions(mediaFilter: .photo))
            let photos = try await fetch.assets(in: 0..<min(4, fetch.count))
            try #require(photos.count == 4)
            return photos
        }
    }

    @Test func closingThePagesEventStreamStopsTheSessionsPrefetch() async throws {
        let fixture = try await Fixture()
        defer { Task { await fixture.server.stop() } }
        let person = fixture.server.picker(try await fixture.server.client.createSession())
        let page = try PendingRequest(port: fixture.server.baseURL.port!, path: person.apiPath + "events",
                                      headers: ["Cookie: \(fixture.server.personCookie)", "Accept: text/event-stream"])
        #expect(await page.status() == 200)
        let ids = try await fixture.photos().map { $0.id.uuid.uuidString }
        #expect(try await person.send("POST", "prefetch", json: ["ids": ids, "w": 64, "h": 64, "mode": "fill"]).status == 204)
        try await HangGuard.waitUntil("the first prefetch render's start") { fixture.rendering.started.count == 1 }
        try await HangGuard.waitUntil("the other three prefetch renders queued") { await fixture.manager.queuedRenderCount == 3 }
        #expect(fixture.manager.prefetchCount == 4)

        page.close()
        try await HangGuard.waitUntil("the prefetch stopped with its page") {
            await fixture.manager.queuedRenderCount == 0 && fixture.manager.prefetchCount == 0
        }
        fixture.rendering.releaseHeld()
    }

    @Test func thePrefetchLastsWhileAnotherPageOfTheSessionIsOpen() async throws {
        let fixture = try await Fixture()
        defer { Task { await fixture.server.stop() } }
        let library = fixture.server.library
        let ledger = PrefetchLedger()
        let first = ledger.pageOpened(session: "s"), second = ledger.pageOpened(session: "s")
        let other = ledger.pageOpened(session: "another")
        await ledger.start(try await fixture.photos(), request: ImageRequest(targetSize: PixelSize(width: 64, height: 64)),
                           session: "s", on: library) { _ in true }
        #expect(fixture.manager.prefetchCount == 4)

        await first.end(on: library)
        await first.end(on: library) // a page goes once: no second count
        await other.end(on: library)
        #expect(fixture.manager.prefetchCount == 4, "a page of the session is still open")
        await second.end(on: library)
        #expect(fixture.manager.prefetchCount == 0)
        fixture.rendering.releaseHeld()
    }
}
