import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PickerClient
import Testing
import TestSupport

/// The client API takes exactly the requests its OpenAPI document describes; everything else
/// is a 400 whose message names what is wrong.
@Suite struct ClientRequestCheckingTests {
    @Test func aBaseUrlsExpiryAndSidesAreTakenOnlyAsPlainDecimals() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let person = server.picker(session)
        let id = try #require(try await person.cameraRollIDs(media: "photo").first)
        // The picker page's image route takes its sides as plain decimals too.
        #expect(try await person.get("assets/\(id)/image?w=064&h=64").status == 400)
        #expect(try await person.get("assets/\(id)/image?w=%2B64&h=64").status == 400)
        #expect(try await person.get("assets/\(id)/image?w=64&h=64").status == 200)
        try await person.pick([id])
        let base = try #require(try await server.client.mediaItems(in: session.id).first).baseURLPath
        #expect(try await server.request("GET", base + "=w64").status == 200)
        let expiry = String(base.split(separator: "/").last!), prefix = String(base.dropLast(expiry.count))
        for spelled in ["+" + expiry, "0" + expiry, "00" + expiry, " " + expiry, expiry + " "] {
            let path = prefix + (spelled.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? spelled) + "=w64"
            #expect(try await server.request("GET", path).status == 404, "\(path)")
        }
        for sides in ["=w+64", "=w064", "=w64-h064", "=h+1", "=w0064-h64-c", "=w-64"] {
            #expect(try await server.request("GET", base + sides).status == 400, "\(sides)")
        }
    }

    @Test func aSessionBodyWithAnUnknownKeyANullOrAWrongValueIsRefused() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let refused: [(String, String)] = [
            (#"{"pickingConfig": {"maxItemCount": "3"}, "pickingconfig": {}}"#, "'pickingconfig'"),
            (#"{"pickingConfig": {"maxItemCount": "3", "maxItems": "5"}}"#, "'maxItems'"),
            (#"{"maxItems": 3}"#, "'maxItems'"),
            (#"{"pickingConfig": null}"#, "JSON"),
            (#"{"pickingConfig": {"maxItemCount": null}}"#, "'pickingConfig.maxItemCount'"),
            (#"{"preselected": null}"#, "'preselected'"),
            (#"{"mediaFilter": "photos"}"#, #"'mediaFilter' takes "photo", "video", "all"; got "photos"."#),
            (#"{"mediaFilter": "videos"}"#, #"'mediaFilter' takes "photo", "video", "all"; got "videos"."#),
            (#"{"order": "newest"}"#, #"'order' takes "pick", "date"; got "newest"."#),
            (#"{"order": 1}"#, "'order'"),
            (#"{"preselected": ["a", 2]}"#, "'preselected"),
            (#"{"pickingConfig": {"maxItemCount": "2.5"}}"#, "'pickingConfig.maxItemCount'"),
            (#"{"pickingConfig": {"maxItemCount": 2.5}}"#, "'pickingConfig.maxItemCount'"),
            (#"{"pickingConfig": {"maxItemCount": "0"}}"#, "'pickingConfig.maxItemCount'"),
            (#"{"pickingConfig": {"maxItemCount": "2001"}}"#, "'pickingConfig.maxItemCount'"),
            (#"{"pickingConfig": {"maxItemCount": "+5"}}"#, "'pickingConfig.maxItemCount'"),
            (#"{"pickingConfig": {"maxItemCount": "05"}}"#, "'pickingConfig.maxItemCount'"),
            (#"{"pickingConfig": {"maxItemCount": " 5"}}"#, "'pickingConfig.maxItemCount'"),
            (#"[]"#, "JSON body"),
            (#"{"#, "JSON"),
        ]
        for (body, named) in refused {
            let answer = try await server.request("POST", "/v1/sessions", headers: ["Content-Type": "application/json"], body: Data(body.utf8))
            #expect(answer.status == 400, "\(body)")
            #expect(answer.errorMessage.contains(named), "\(body): \(answer.errorMessage)")
            #expect((answer.json["error"] as? [String: Any])?["status"] as? String == "INVALID_ARGUMENT", "\(body)")
        }
        #expect(server.sessionCount == 0)
        // No body at all is `{}`, as Google's API takes it.
        let bare = try await server.request("POST", "/v1/sessions")
        #expect(bare.status == 200)
        #expect((bare.json["pickingConfig"] as? [String: Any])?["maxItemCount"] as? String == "2000")
        let taken = try await server.request("POST", "/v1/sessions", headers: ["Content-Type": "application/json"],
                                             body: Data(#"{"pickingConfig": {"maxItemCount": "7"}, "mediaFilter": "photo", "order": "date", "preselected": []}"#.utf8))
        #expect(taken.status == 200)
        #expect((taken.json["pickingConfig"] as? [String: Any])?["maxItemCount"] as? String == "7")
        #expect(taken.json["order"] as? String == "date")
    }

    /// The outside attack's F3: `{"order": "X" * 4,000,000}` came back as a 4 MB refusal.
    @Test("a session body's long value or key is quoted back cut short, by the client API and the person's mirror alike")
    func longValuesAndKeysAreCutInRefusals() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let long = String(repeating: "X", count: 1_000_000), marked = "x" + String(repeating: "\u{301}", count: 100_000)
        let bodies: [(body: [String: Any], named: String)] = [
            (["order": long], "'order'"), (["mediaFilter": long], "'mediaFilter'"), (["order": marked], "'order'"),
            ([long: 1], "The body has no key"), (["pickingConfig": [long: 1]], "'pickingConfig' has no key"),
            (["pickingConfig": ["maxItemCount": long]], "'pickingConfig.maxItemCount'"),
        ]
        for (body, named) in bodies {
            let data = try JSONSerialization.data(withJSONObject: body)
            for (path, asPerson) in [("/v1/sessions", false), ("/demo/v1/sessions", true)] {
                let answer = try await server.request("POST", path, headers: ["Content-Type": "application/json"], body: data,
                                                      authorized: !asPerson, asPerson: asPerson)
                #expect(answer.status == 400, "\(path) \(named)")
                #expect(answer.errorMessage.contains(named), "\(path): \(answer.errorMessage.prefix(200))")
                #expect(answer.body.count < 400 && answer.errorMessage.contains("…"), "\(path) \(named): \(answer.body.count) bytes")
            }
        }
        #expect(server.sessionCount == 0)
    }

    @Test func onlyPageTokensOfTheServersOwnFormAreTakenAndOnePastTheEndReadsAnEmptyPage() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let person = server.picker(session)
        try await person.pick(Array(try await person.cameraRollIDs().prefix(3)))
        _ = try await server.client.waitUntilPicked(session.id)
        for token in ["p0", "p01", "p+1", "p-1", "p 1", "p1x", "q1", "p", "p99999999999999999999"] {
            let encoded = token.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let answer = try await server.request("GET", "/v1/mediaItems?sessionId=\(session.id)&pageToken=\(encoded)")
            #expect(answer.status == 400, "\(token)")
            #expect(answer.errorMessage.contains("pageToken"), "\(token)")
        }
        let second = try await server.request("GET", "/v1/mediaItems?sessionId=\(session.id)&pageToken=p2")
        #expect((second.json["mediaItems"] as? [Any])?.count == 1)
        for token in ["p3", "p1000"] {
            let past = try await server.request("GET", "/v1/mediaItems?sessionId=\(session.id)&pageToken=\(token)")
            #expect(past.status == 200, "\(token)")
            #expect((past.json["mediaItems"] as? [Any] ?? []).isEmpty, "\(token)")
            #expect(past.json["nextPageToken"] == nil, "\(token)")
        }
    }
}
