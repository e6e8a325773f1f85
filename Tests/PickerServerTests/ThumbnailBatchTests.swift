import Foundation
import PickerClient
import Testing

/// `POST api/thumbnails`: a first screen's final thumbnails that the server holds, in one answer;
/// what it does not hold (or may not show) is left out, and nothing is rendered for it.
@Suite("A first screen's held thumbnails come in one answer")
struct ThumbnailBatchTests {
    /// The answer's thumbnails, their bytes decoded from base64.
    private static func split(_ body: Data) throws -> [(id: String, type: String, final: Bool, bytes: Data)] {
        let answer = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        let thumbnails = try #require(answer["thumbnails"] as? [[String: Any]])
        return try thumbnails.map { thumbnail in
            let data = try #require(thumbnail["data"] as? String)
            return (try #require(thumbnail["id"] as? String), try #require(thumbnail["type"] as? String),
                    try #require(thumbnail["final"] as? Bool), try #require(Data(base64Encoded: data)))
        }
    }

    @Test("held thumbnails come final with the image route's bytes, the others quick, in the order asked; unknown and malformed ids are left out")
    func heldOnesInOrder() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let person = server.picker(try await server.client.createSession())
        let photos = try await person.cameraRollIDs(media: "photo")
        try #require(photos.count >= 4)
        let query = "w=120&h=120&mode=fill&format=jpeg&delivery=high"
        var rendered: [String: Data] = [:]
        for id in [photos[2], photos[0]] {
            let answer = try await person.get("assets/\(id)/image?\(query)")
            #expect(answer.status == 200)
            rendered[id] = answer.body
        }
        let unknown = UUID().uuidString
        let asked = [photos[0], photos[1], unknown, "not-an-id", photos[2], photos[3]]
        let answer = try await person.send("POST", "thumbnails", json: ["ids": asked, "w": 120, "h": 120, "mode": "fill"])
        #expect(answer.status == 200)
        #expect(answer.header("Content-Type") == "application/json")
        #expect(answer.header("Cache-Control") == "no-store")
        let parts = try Self.split(answer.body)
        let order = parts.map(\.id)
        #expect(order == asked.filter(order.contains), "not in the order asked: \(order)")
        #expect(!order.contains(unknown) && !order.contains("not-an-id"))
        #expect(parts.filter(\.final).map(\.id) == [photos[0], photos[2]], "the held ones are the two rendered")
        for part in parts {
            #expect(part.type == "image/jpeg")
            #expect(part.bytes.starts(with: [0xFF, 0xD8, 0xFF]), "\(part.id): not a JPEG")
            if part.final { #expect(part.bytes == rendered[part.id], "\(part.id): not the image route's bytes") }
        }
        #expect(parts.contains { !$0.final }, "the corpus' camera photos carry EXIF thumbnails: quick images for those not rendered")

        // At another size (smaller than every original: not the same rendition) nothing is held:
        // quick images only, and asking renders nothing.
        for _ in 0..<2 {
            let other = try Self.split(try await person.send("POST", "thumbnails", json: ["ids": asked, "w": 100, "h": 100]).body)
            #expect(!other.isEmpty && other.allSatisfy { !$0.final }, "the batch rendered what it was asked for")
        }
    }

    @Test("a thumbnail the server holds of an asset outside the session's filter is not given")
    func onlyWhatTheSessionShows() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let everything = server.picker(try await server.client.createSession())
        let photosOnly = server.picker(try await server.client.createSession(PickerSessionOptions(mediaFilter: "photo")))
        let video = try #require(try await everything.cameraRollIDs(media: "video").first)
        let photo = try #require(try await photosOnly.cameraRollIDs(media: "photo").first)
        for id in [video, photo] {
            #expect(try await everything.get("assets/\(id)/image?w=120&h=120&mode=fill&format=jpeg").status == 200)
        }
        let body: [String: Any] = ["ids": [video, photo], "w": 120, "h": 120]
        #expect(try Self.split(try await everything.send("POST", "thumbnails", json: body).body).map(\.id) == [video, photo])
        let filtered = try await photosOnly.send("POST", "thumbnails", json: body)
        #expect(filtered.status == 200)
        #expect(try Self.split(filtered.body).map(\.id) == [photo], "the photos-only session was given the video's thumbnail")
    }

    @Test("beyond its bounds a batch is refused 400 with the reason: 501 ids, a side of 0 or 1025")
    func bounded() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let person = server.picker(try await server.client.createSession())
        let tooMany = (0...500).map { _ in UUID().uuidString }
        for (body, reason) in [(["ids": tooMany, "w": 120, "h": 120], "at most 500 ids"),
                               (["ids": [String](), "w": 0, "h": 120], "'w'"), (["ids": [String](), "w": 120, "h": 1025], "'h'")] as [([String: Any], String)] {
            let answer = try await person.send("POST", "thumbnails", json: body)
            #expect(answer.status == 400)
            #expect(answer.errorMessage.contains(reason), "\(answer.errorMessage)")
        }
    }

    @Test("without the person's cookie, or on an ended session, a batch gives nothing")
    func personOnly() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let person = server.picker(session)
        let photo = try #require(try await person.cameraRollIDs(media: "photo").first)
        #expect(try await person.get("assets/\(photo)/image?w=120&h=120&mode=fill&format=jpeg").status == 200)
        let body = try JSONSerialization.data(withJSONObject: ["ids": [photo], "w": 120, "h": 120])
        let stranger = try await server.request("POST", person.apiPath + "thumbnails", headers: ["Content-Type": "application/json"],
                                                body: body, authorized: true, asPerson: false)
        #expect(stranger.status == 401)
        #expect(!String(decoding: stranger.body, as: UTF8.self).contains("thumbnails"), "thumbnails went to a caller without the person's cookie")
        #expect(try await person.send("POST", "cancel").status == 200)
        let ended = try await person.send("POST", "thumbnails", json: ["ids": [photo], "w": 120, "h": 120])
        #expect(ended.status == 410)
    }
}
