import Foundation
import PickerClient
@testable import PickerServer
import Testing

/// The page reads its bounds and its thumbnails' quality from `GET api/session`: those numbers
/// are the ones the server holds to.
@Suite struct PickerPageLimitsTests {
    @Test("the session serves the thumbnails' quality and the batch and prefetch bounds the routes enforce")
    func servedBoundsAreEnforced() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let person = server.picker(try await server.client.createSession())
        let limits = try #require(try await person.get("session").json["limits"] as? [String: Any])
        #expect(limits["thumbnailQuality"] as? Int == PickerThumbnails.quality)
        let batch = try #require(limits["batch"] as? [String: Int])
        let prefetch = try #require(limits["prefetch"] as? [String: Int])
        #expect(batch == ["ids": ThumbnailBatch.maximumIDs, "side": ThumbnailBatch.maximumSide])
        #expect(prefetch == ["ids": PrefetchLimits.maximumIDs, "side": PrefetchLimits.maximumSide, "pixels": PrefetchLimits.maximumPixels])

        // Unknown ids: each answer is decided by its bounds alone, and nothing is rendered.
        func ids(_ count: Int) -> [String] { (0..<count).map { _ in UUID().uuidString } }
        func status(_ path: String, _ count: Int, side: Int) async throws -> Int {
            try await person.send("POST", path, json: ["ids": ids(count), "w": side, "h": side, "mode": "fill"]).status
        }
        let (batchIDs, batchSide) = (try #require(batch["ids"]), try #require(batch["side"]))
        #expect(try await status("thumbnails", batchIDs, side: batchSide) == 200)
        #expect(try await status("thumbnails", batchIDs + 1, side: batchSide) == 400)
        #expect(try await status("thumbnails", 1, side: batchSide + 1) == 400)
        let (prefetchIDs, prefetchSide, pixels) = (try #require(prefetch["ids"]), try #require(prefetch["side"]), try #require(prefetch["pixels"]))
        let fitting = min(prefetchIDs, pixels / (prefetchSide * prefetchSide))
        #expect(try await status("prefetch", fitting, side: prefetchSide) == 204)
        #expect(try await status("prefetch", fitting + 1, side: prefetchSide) == 400)
        #expect(try await status("prefetch", 1, side: prefetchSide + 1) == 400)
    }

    @Test("a thumbnail asked for at the served quality is the one the batch holds; at another it is not")
    func servedQualityIsTheBatchRendition() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let person = server.picker(try await server.client.createSession())
        let quality = try #require(try await person.get("session").json["limits"] as? [String: Any])["thumbnailQuality"] as? Int
        let photos = try await person.cameraRollIDs(media: "photo")
        let (other, served) = (photos[0], photos[1])
        for (id, asked) in [(other, try #require(quality) - 1), (served, try #require(quality))] {
            #expect(try await person.get("assets/\(id)/image?w=90&h=90&mode=fill&quality=\(asked)").status == 200)
        }
        let answer = try await person.send("POST", "thumbnails", json: ["ids": [other, served], "w": 90, "h": 90, "mode": "fill"])
        let thumbnails = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])["thumbnails"] as? [[String: Any]]
        let held = try #require(thumbnails).filter { $0["final"] as? Bool == true }.compactMap { $0["id"] as? String }
        #expect(held == [served])
    }
}
