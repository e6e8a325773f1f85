import Foundation
import PickerClient
import PickerServer
import Testing

/// A small request cannot buy a large render: image sizes and prefetches are bounded, and a
/// request beyond a bound gets 400 naming it.
@Suite("Image and prefetch requests are bounded")
struct RequestBoundsTests {
    @Test("an image over 4096 pixels a side is refused 400 naming the parameter", arguments: ["w=16384&h=16384", "w=4097&h=64", "w=64&h=4097"])
    func imageSide(_ query: String) async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let person = server.picker(try await server.client.createSession())
        let photo = try #require(try await person.cameraRollIDs(media: "photo").first)
        let answer = try await person.get("assets/\(photo)/image?\(query)&mode=fit")
        #expect(answer.status == 400)
        #expect(answer.errorMessage.contains("from 1 to 4096"), "\(answer.errorMessage)")
    }

    @Test("a refusal quotes a long value back cut short: one short line, whatever was sent")
    func longValuesAreCutInRefusals() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let person = server.picker(try await server.client.createSession())
        let photo = try #require(try await person.cameraRollIDs(media: "photo").first)
        let answer = try await person.get("assets/\(photo)/image?w=\(String(repeating: "9", count: 20_000))&h=64")
        #expect(answer.status == 400)
        #expect(answer.errorMessage.count < 200 && answer.errorMessage.contains("…"), "\(answer.errorMessage.prefix(300))")
    }

    @Test("prefetch beyond its bounds is refused 400: 43 ids at 16384², 501 ids, 500 ids at 1024²")
    func prefetchBounds() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let person = server.picker(try await server.client.createSession())
        let ids = try await person.cameraRollIDs(media: "photo")
        let many = (0..<501).map { ids[$0 % ids.count] }
        let refusals: [(body: [String: Any], says: String)] = [
            (["ids": Array(many.prefix(43)), "w": 16_384, "h": 16_384, "mode": "fill"], "'w' and 'h' from 1 to 1024"),
            (["ids": many, "w": 64, "h": 64, "mode": "fill"], "at most 500 ids"),
            (["ids": Array(many.prefix(500)), "w": 1_024, "h": 1_024, "mode": "fill"], "at most 131072000 pixels"),
        ]
        for refusal in refusals {
            let answer = try await person.send("POST", "prefetch", json: refusal.body)
            #expect(answer.status == 400)
            #expect(answer.errorMessage.contains(refusal.says), "\(answer.errorMessage)")
        }
        let accepted = try await person.send("POST", "prefetch", json: ["ids": Array(ids.prefix(4)), "w": 256, "h": 256, "mode": "fill"])
        #expect(accepted.status == 204)
    }

    @Test("a session's preselection is bounded: at most 2000 identifiers of at most 256 characters, refused 400 beyond")
    func preselectionBounds() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let refusals: [(ids: [String], says: String)] = [
            ((0..<2_001).map { _ in UUID().uuidString }, "at most 2000 identifiers"),
            ([UUID().uuidString, String(repeating: "a", count: 257)], "at most 256 characters"),
            ([String(repeating: "é", count: 257)], "at most 256 characters"),
        ]
        for refusal in refusals {
            let body = try JSONSerialization.data(withJSONObject: ["preselected": refusal.ids])
            let answer = try await server.request("POST", "/v1/sessions", headers: ["Content-Type": "application/json"], body: body)
            #expect(answer.status == 400)
            #expect(answer.errorMessage.contains(refusal.says), "\(answer.errorMessage)")
        }
        let most = (0..<1_999).map { _ in UUID().uuidString } + [String(repeating: "a", count: 256)]
        let accepted = try await server.client.createSession(PickerSessionOptions(preselected: most))
        #expect(!accepted.id.isEmpty)
    }
}
