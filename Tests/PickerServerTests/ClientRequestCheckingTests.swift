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
    @Test func aSessionBodyWithAnUnknownKeyANullOrAWrongValueIsRefused() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let refused: [(String, String)] = [
            (#"{"maxItems": 3, "maxitems": 5}"#, "'maxitems'"),
            (#"{"maxItems": null}"#, "'maxItems'"),
            (#"{"preselected": null}"#, "'preselected'"),
            (#"{"mediaFilter": "photos"}"#, "'mediaFilter'"),
            (#"{"order": 1}"#, "'order'"),
            (#"{"preselected": ["a", 2]}"#, "'preselected"),
            (#"{"maxItems": 2.5}"#, "'maxItems'"),
            (#"{"maxItems": 0}"#, "'maxItems'"),
            (#"{"maxItems": 2001}"#, "'maxItems'"),
            (#"[]"#, "JSON body"),
            (#"{"#, "JSON"),
            ("", "JSON body"),
        ]
        for (body, named) in refused {
            let answer = try await server.request("POST", "/v1/sessions", headers: ["Content-Type": "application/json"], body: Data(body.utf8))
            #expect(answer.status == 400, "\(body)")
            #expect(answer.errorMessage.contains(named), "\(body): \(answer.errorMessage)")
        }
        #expect(server.server.sessions.count == 0)
        let taken = try await server.request("POST", "/v1/sessions", headers: ["Content-Type": "application/json"],
                                             body: Data(#"{"maxItems": 7, "mediaFilter": "photo", "order": "date", "preselected": []}"#.utf8))
        #expect(taken.status == 201)
        #expect(taken.json["maxItems"] as? Int == 7)
        #expect(taken.json["order"] as? String == "date")
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
            let answer = try await server.request("GET", "/v1/sessions/\(session.id)/items?pageToken=\(encoded)")
            #expect(answer.status == 400, "\(token)")
            #expect(answer.errorMessage.contains("pageToken"), "\(token)")
        }
        let second = try await server.request("GET", "/v1/sessions/\(session.id)/items?pageToken=p2")
        #expect((second.json["items"] as? [Any])?.count == 1)
        for token in ["p3", "p1000"] {
            let past = try await server.request("GET", "/v1/sessions/\(session.id)/items?pageToken=\(token)")
            #expect(past.status == 200, "\(token)")
            #expect((past.json["items"] as? [Any])?.isEmpty == true, "\(token)")
            #expect(past.json["nextPageToken"] == nil, "\(token)")
        }
    }
}
