import AssetsKit
import Foundation
import ImagePipeline
@testable import PickerServer
import Testing
import TestSupport

/// Every image a session asks for — the page's images, thumbnail batches and prefetch, the
/// client's baseUrls — goes through one responder: one budget covers them all, and the page's
/// work stops with the session's last page. Over real HTTP, with renders held, never timed.
@Suite struct SessionImageWorkTests {
    /// A server whose renders run one at a time and wait for ``TestRendering/releaseHeld()``, and
    /// a person at its picker with the camera roll's photos.
    private struct Fixture {
        let rendering = TestRendering(holding: "")
        let manager: CachingImageManager
        let server: TestServer
        let person: PersonAtPicker
        let photos: [String]
        /// How many prefetch renders a session runs at once.
        let prefetchWidth = max(1, ProcessInfo.processInfo.activeProcessorCount)

        init(rendersPerSession: Int) async throws {
            manager = CachingImageManager(configuration: ImageManagerConfiguration(maxConcurrentRenders: 1), rendering: rendering)
            var limits = PickerServerLimits.forTests
            limits.rendersPerSession = rendersPerSession
            // No heartbeat whose failed write would tell of a closed page: only the connection's departure can.
            limits.eventHeartbeat = .seconds(24 * 3_600)
            server = try await TestServer.indexed(limits: limits, imageManager: manager)
            person = server.picker(try await server.client.createSession())
            photos = try await person.cameraRollIDs(media: "photo")
            try #require(photos.count >= 9)
        }

        /// The session's event stream: the page, open while the connection is.
        func openPage() async throws -> PendingRequest {
            let page = try PendingRequest(port: server.baseURL.port!, path: person.apiPath + "events",
                                          headers: ["Cookie: \(server.personCookie)", "Accept: text/event-stream"])
            #expect(await page.status() == 200)
            return page
        }

        /// A thumbnail asked for on a connection of its own, as the page's browser asks.
        func image(_ photo: Int) throws -> PendingRequest {
            try PendingRequest(port: server.baseURL.port!, path: person.apiPath + "assets/\(photos[photo])/image?w=200&h=200&mode=fill",
                               headers: ["Cookie: \(server.personCookie)"])
        }

        func prefetch(_ photos: Range<Int>) async throws {
            let ids = photos.map { self.photos[$0] }
            #expect(try await person.send("POST", "prefetch", json: ["ids": ids, "w": 200, "h": 200, "mode": "fill"]).status == 204)
        }

        /// The thumbnails a batch of `photos` answers with.
        func batch(_ photos: Range<Int>) async throws -> [[String: Any]] {
            let answer = try await person.send("POST", "thumbnails", json: ["ids": photos.map { self.photos[$0] }, "w": 200, "h": 200])
            #expect(answer.status == 200)
            return answer.json["thumbnails"] as? [[String: Any]] ?? []
        }
    }

    @Test func aPageThatGoesStopsItsPrefetchAndTheImagesItsConnectionsAskedFor() async throws {
        let fixture = try await Fixture(rendersPerSession: 32)
        defer { Task { await fixture.server.stop() } }
        let page = try await fixture.openPage()
        let shown = try fixture.image(0)
        try await HangGuard.waitUntil("the first image's render start") { fixture.rendering.started.count == 1 }
        let loading = try fixture.image(1)
        try await HangGuard.waitUntil("the second image queued") { await fixture.manager.queuedRenderCount == 1 }
        try await fixture.prefetch(2..<6)
        let prefetching = min(fixture.prefetchWidth, 4)
        try await HangGuard.waitUntil("the prefetch renders queued") { await fixture.manager.queuedRenderCount == 1 + prefetching }

        // The page goes: its event stream and the connection of the image still loading close.
        page.close()
        loading.close()
        try await HangGuard.waitUntil("the prefetch and the closed connection's image gone from the queue") {
            await fixture.manager.queuedRenderCount == 0
        }
        fixture.rendering.releaseHeld()
        // A connection still open is still answered: the page closes its event stream on purpose
        // while a first screen loads, and waits for that screen's thumbnails meanwhile.
        #expect(await shown.status() == 200)
        #expect(fixture.rendering.started.count == 1, "nothing the page had left behind ever started")
    }

    @Test func sessionsTakeTurnsSoOneSessionsManyRendersDoNotHoldUpAnothers() async throws {
        let fixture = try await Fixture(rendersPerSession: 32)
        defer { Task { await fixture.server.stop() } }
        let other = fixture.server.picker(try await fixture.server.client.createSession())
        let many = try (0..<4).map { try fixture.image($0) }
        try await HangGuard.waitUntil("one render started, three queued") {
            let queued = await fixture.manager.queuedRenderCount
            return fixture.rendering.started.count == 1 && queued == 3
        }
        let otherPath = other.apiPath + "assets/\(fixture.photos[8])/image?w=200&h=200&mode=fill"
        let one = try PendingRequest(port: fixture.server.baseURL.port!, path: otherPath, headers: ["Cookie: \(fixture.server.personCookie)"])
        try await HangGuard.waitUntil("the other session's render queued last") { await fixture.manager.queuedRenderCount == 4 }
        fixture.rendering.releaseHeld()
        #expect(await one.status() == 200)
        for image in many { #expect(await image.status() == 200) }
        let started = fixture.rendering.started
        #expect(started.count == 5)
        #expect(started.firstIndex(of: fixture.photos[8].uppercased()) == 1,
                "the other session's one render is next, before the first session's queued three: \(started)")
    }

    @Test func oneBudgetCoversPrefetchBatchesAndImagesAndVisibleImagesComeFirst() async throws {
        let fixture = try await Fixture(rendersPerSession: 3)
        defer { Task { await fixture.server.stop() } }
        let page = try await fixture.openPage()
        defer { page.close() }
        // (One photo: a batch starts as many quick images as there are cores whatever the time, more only within its time.)
        #expect(try await fixture.batch(6..<7).count == 1, "with room in the budget a batch brings the photo's quick image")

        try await fixture.prefetch(0..<6)
        let prefetching = min(fixture.prefetchWidth, 3)
        try await HangGuard.waitUntil("the first prefetch render's start") { fixture.rendering.started.count == 1 }
        try await HangGuard.waitUntil("the other prefetch renders queued") { await fixture.manager.queuedRenderCount == prefetching - 1 }
        // Three first images take the three places, the prefetch's among them; a first image
        // does not wait for the prefetch render's slot, the other two queue, and the prefetch
        // render that had not started leaves the queue.
        let images = try (6..<9).map { try fixture.image($0) }
        try await HangGuard.waitUntil("one image rendering, two queued, the prefetch gone") {
            await fixture.manager.queuedRenderCount == 2 && fixture.rendering.started.count == 2
        }
        // The budget is full of visible images: one more is refused, and a batch brings nothing it would have to make.
        #expect(await (try fixture.image(3)).status() == 429)
        #expect(try await fixture.batch(6..<7).isEmpty)

        fixture.rendering.releaseHeld()
        for image in images { #expect(await image.status() == 200) }
        let started = fixture.rendering.started
        #expect(started.count == 4, "the one prefetch render that had started, then the three images: \(started)")
        #expect(Set(started.dropFirst()) == Set((6..<9).map { fixture.photos[$0].uppercased() }))
    }

    @Test func aPrefetchLastsWhileAPageOfItsSessionIsOpen() {
        let pages = PickerPages()
        let first = pages.pageOpened(session: "s"), second = pages.pageOpened(session: "s")
        let other = pages.pageOpened(session: "another")
        let (waiting, release) = AsyncStream<Void>.makeStream()
        pages.startPrefetch(session: "s") { for await _ in waiting {} }

        first.end()
        first.end() // a page goes once: no second count
        other.end()
        #expect(pages.isPrefetching(session: "s"), "a page of the session is still open")
        second.end()
        #expect(!pages.isPrefetching(session: "s"))
        release.finish()
    }
}
