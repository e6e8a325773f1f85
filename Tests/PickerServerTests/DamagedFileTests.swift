import Foundation
import PickerClient
import Testing
import TestSupport

/// A damaged file gets the same answer on every path, every time.
@Suite("A damaged photo is refused on every picker path, every time")
struct DamagedFileTests {
    @Test("xcsn0g01.png (bad IDAT CRC) answers 422 to fast and high requests at every size, before and after a prefetch")
    func sameAnswer() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("damaged-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await TestServer.indexed(adding: [try DamagedPNG.badIDATCRC(in: folder)])
        defer { Task { await server.stop() } }
        let person = server.picker(try await server.client.createSession())
        let window = try await person.get("albums/smart%3Aall/assets?limit=500&media=photo").json
        let items = window["items"] as? [[String: Any]] ?? []
        let id = try #require(items.first { $0["filename"] as? String == "xcsn0g01.png" }?["id"] as? String)
        func expectRefusedEverywhere(_ round: String) async throws {
            for side in [16, 32, 50, 256] {
                for delivery in ["fast", "high"] {
                    let answer = try await person.get("assets/\(id)/image?w=\(side)&h=\(side)&mode=fill&delivery=\(delivery)")
                    #expect(answer.status == 422, "\(round): \(side) \(delivery) answered \(answer.status)")
                }
            }
        }
        for round in 0..<3 { try await expectRefusedEverywhere("round \(round)") }
        let prefetch = try await person.send("POST", "prefetch", json: ["ids": [id], "w": 64, "h": 64, "mode": "fill"])
        #expect(prefetch.status == 204)
        try await expectRefusedEverywhere("after a prefetch")
    }

    @Test("a video with no decodable frame answers 422 naming its file, to the person and to the client")
    func videoWithoutFrames() async throws {
        let server = try await TestServer.indexed(adding: [Corpus.file("E_formats/exiftool__QuickTime.mov")])
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let person = server.picker(session)
        let window = try await person.get("albums/smart%3Aall/assets?limit=500&media=video").json
        let items = window["items"] as? [[String: Any]] ?? []
        let id = try #require(items.first { $0["filename"] as? String == "exiftool__QuickTime.mov" }?["id"] as? String)
        let thumbnail = try await person.get("assets/\(id)/image?w=64&h=64&mode=fill")
        #expect(thumbnail.status == 422)
        #expect(thumbnail.errorMessage == "exiftool__QuickTime.mov cannot be rendered: exiftool__QuickTime.mov: no video frame could be decoded")
        try await person.pick([id])
        let item = try #require(try await server.client.mediaItems(in: session.id).first)
        let rendition = try await server.request("GET", item.baseURLPath + "=w200-h200")
        #expect(rendition.status == 422, "\(rendition.status)")
        #expect(!String(decoding: rendition.body, as: UTF8.self).contains("/"), "a path in \(rendition.errorMessage)")
    }
}
