import Foundation
import ImagePipeline
import PickerServer
import Testing
import TestSupport

/// The picker page's renders over real HTTP: given up when the client leaves, bounded per
/// session, a visible cell's first image before sharp upgrades.
@Suite struct RenderQueueTests {
    /// A server whose renders run one at a time and wait for ``TestRendering/releaseHeld()``, and a
    /// person at its picker with the camera roll's photos.
    private struct Fixture {
        let rendering = TestRendering(holding: "")
        let manager: CachingImageManager
        let server: TestServer
        let person: PersonAtPicker
        let photos: [String]

        init(rendersPerSession: Int = PickerServerLimits().rendersPerSession) async throws {
            manager = CachingImageManager(configuration: ImageManagerConfiguration(maxConcurrentRenders: 1), rendering: rendering)
            var limits = PickerServerLimits.forTests
            limits.rendersPerSession = rendersPerSession
            server = try await TestServer.indexed(limits: limits, imageManager: manager)
            person = server.picker(try await server.client.createSession())
            photos = try await person.cameraRollIDs(media: "photo")
        }

        /// A thumbnail request on a connection of its own, as the page's browser sends it.
        func request(_ photo: Int, upgrade: Bool = false) throws -> PendingRequest {
            let path = person.apiPath + "assets/\(photos[photo])/image?w=200&h=200&mode=fill&delivery=high"
            return try PendingRequest(port: server.baseURL.port!, path: path,
                                      headers: ["Cookie: \(server.personCookie)"] + (upgrade ? ["X-Image-Upgrade: 1"] : []))
        }
    }

    @Test func aClientThatClosesItsConnectionLeavesTheRenderQueue() async throws {
        let fixture = try await Fixture()
        defer { Task { await fixture.server.stop() } }
        let running = try fixture.request(0)
        try await HangGuard.waitUntil("the first render's start") { fixture.rendering.started.count == 1 }
        let leaving = try fixture.request(1)
        try await HangGuard.waitUntil("the second render queued") { await fixture.manager.queuedRenderCount == 1 }
        leaving.close()
        try await HangGuard.waitUntil("the render of the closed connection leaving the queue") { await fixture.manager.queuedRenderCount == 0 }
        fixture.rendering.releaseHeld()
        #expect(await running.status() == 200)
        #expect(fixture.rendering.started.count == 1, "the render nobody waits for never started")
    }

    @Test func aSessionsRendersAreBoundedAndAFirstImageTakesTheOldestUpgradesPlace() async throws {
        let fixture = try await Fixture(rendersPerSession: 2)
        defer { Task { await fixture.server.stop() } }
        let oldestUpgrade = try fixture.request(0, upgrade: true)
        try await HangGuard.waitUntil("the first upgrade's render") { fixture.rendering.started.count == 1 }
        let upgrade = try fixture.request(1, upgrade: true)
        try await HangGuard.waitUntil("the second upgrade queued") { await fixture.manager.queuedRenderCount == 1 }
        // The session is at its limit: a first image takes the oldest upgrade's place...
        let first = try fixture.request(2)
        #expect(await oldestUpgrade.status() == 429)
        // ...and one more upgrade is refused at once.
        #expect(await (try fixture.request(3, upgrade: true)).status() == 429)
        // It does not wait behind the upgrade that holds the one slot.
        try await HangGuard.waitUntil("the first image's render") { fixture.rendering.started.count == 2 }
        #expect(await fixture.manager.queuedRenderCount == 1)
        fixture.rendering.releaseHeld()
        #expect(await first.status() == 200)
        #expect(await upgrade.status() == 200)
    }
}
