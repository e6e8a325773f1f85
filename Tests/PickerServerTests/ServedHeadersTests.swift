import Foundation
import PickerClient
import PickerServer
import Testing
import TestSupport

/// Every answer carries `X-Content-Type-Options: nosniff` and `Cross-Origin-Resource-Policy:
/// same-origin`, images and originals above all: whoever answers them (the router or the event
/// loop's fast path), whoever asks (the client's baseUrls, the person's mirror of them, the picker).
@Suite struct ServedHeadersTests {
    /// The outside attack's F6: media through `/demo/v1/media/…` came without either.
    @Test func imagesAndOriginalsAreNeitherSniffedNorLoadedByOtherSites() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let own = try await server.server.makeOwnSession()
        let person = PersonAtPicker(server: server, apiPath: "/picker/\(own.id)/\(own.pickerToken)/api/")
        let photo = try #require(try await person.cameraRollIDs(media: "photo").first)
        let port = server.baseURL.port!, cookie = "Cookie: \(server.personCookie)"
        // The picker's image twice: the router makes it, then the fast path answers it from memory.
        let image = "\(person.apiPath)assets/\(photo)/image?w=64&h=64&mode=fill"
        var answers: [(String, RawHTTPExchange.Response)] = []
        for round in ["router", "fast path"] {
            let answer = try #require(await RawHTTPExchange.exchange(port: port, [(image, [cookie])]).responses.first)
            #expect(answer.status == 200, "\(round)")
            answers.append(("picker image, \(round)", answer))
        }
        let original = try #require(await RawHTTPExchange.exchange(port: port, [("\(person.apiPath)assets/\(photo)/original", [cookie])]).responses.first)
        answers.append(("picker original", original))
        try await person.pick([photo])
        let media = try await server.mediaPath(session: own.id, item: photo)
        for suffix in ["=w64-h64", "=d"] {
            let client = try #require(await RawHTTPExchange.exchange(port: port, [(media + suffix, ["Authorization: Bearer \(server.clientKey)"])]).responses.first)
            let mirror = try #require(await RawHTTPExchange.exchange(port: port, [("/demo" + media + suffix, [cookie])]).responses.first)
            answers += [("client baseUrl\(suffix)", client), ("mirror baseUrl\(suffix)", mirror)]
        }
        // And the rest: a page, a refusal.
        let page = try #require(await RawHTTPExchange.exchange(port: port, [("/demo/", [cookie])]).responses.first)
        let refusal = try #require(await RawHTTPExchange.exchange(port: port, [("/v1/sessions/nothing", [])]).responses.first)
        answers += [("demo page", page), ("refusal", refusal)]
        for (what, answer) in answers {
            #expect([200, 401].contains(answer.status), "\(what): \(answer.status)")
            #expect(answer.headers.filter { $0.name == "x-content-type-options" }.map(\.value) == ["nosniff"], "\(what)")
            #expect(answer.headers.filter { $0.name == "cross-origin-resource-policy" }.map(\.value) == ["same-origin"], "\(what)")
        }
    }
}
