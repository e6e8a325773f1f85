import AssetsKit
import Foundation
import ImagePipeline
import Testing
import TestSupport

/// One rendition, one name, one copy: the image route, a prefetch and a thumbnail batch asking
/// for the same image share one render and one key (its entity tag derives from the key), and
/// the bytes are held once in memory — by the server, not again by the pipeline.
@Suite struct OneRenditionTests {
    @Test func theRouteAPrefetchAndABatchShareOneRenderOneKeyAndOneCopy() async throws {
        let manager = CachingImageManager(configuration: ImageManagerConfiguration(maxConcurrentRenders: 1))
        let server = try await TestServer.indexed(imageManager: manager)
        defer { Task { await server.stop() } }
        let person = server.picker(try await server.client.createSession())
        let photo = try #require(try await person.cameraRollIDs(media: "photo").first)

        #expect(try await person.send("POST", "prefetch", json: ["ids": [photo], "w": 96, "h": 96, "mode": "fill"]).status == 204)
        // The prefetched rendition is held once the batch, which never renders, gives it as final.
        try await HangGuard.waitUntil("the prefetch render held by the server") {
            let batch = try? await person.send("POST", "thumbnails", json: ["ids": [photo], "w": 96, "h": 96])
            return (batch?.json["thumbnails"] as? [[String: Any]])?.first?["final"] as? Bool == true
        }
        #expect(await manager.renderCount == 1)
        let answer = try await person.get("assets/\(photo)/image?w=96&h=96&mode=fill")
        #expect(answer.status == 200)
        #expect(await manager.renderCount == 1, "the route's image is the prefetched one")
        #expect(manager.memoryCache.totalBytes == 0, "the server holds the bytes; the pipeline keeps no second copy")

        let asset = try #require(try await server.library.assets(withIdentifiers: [.local(LocalIdentifier(uuid: UUID(uuidString: photo)!))]).found.first)
        let key = RenditionKey(asset, ImageRequest(targetSize: PixelSize(width: 96, height: 96), contentMode: .fill, quality: 80))
        #expect(answer.header("ETag") == key.entityTag, "the entity tag is the rendition key's")

        let batch = try await person.send("POST", "thumbnails", json: ["ids": [photo], "w": 96, "h": 96])
        let thumbnail = try #require((batch.json["thumbnails"] as? [[String: Any]])?.first)
        #expect(thumbnail["final"] as? Bool == true)
        #expect((thumbnail["data"] as? String).flatMap { Data(base64Encoded: $0) } == answer.body, "the batch sends the same bytes")
        #expect(await manager.renderCount == 1)
    }
}
