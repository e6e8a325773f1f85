import Foundation
import PickerClient
import PickerServer
import PickerSessions
import Testing
import TestSupport

/// The demo client page (`/demo/`) and its mirror of the client API (`/demo/v1/…`): the signed-in
/// person's only, for the person's own sessions only, answering the client API's very bytes.
@Suite struct DemoClientTests {
    /// The mirror's routes (method, path) for the session `id`.
    private static func mirrorRoutes(session id: String) -> [(method: String, path: String)] {
        [("POST", "/demo/v1/sessions"), ("GET", "/demo/v1/sessions/\(id)"), ("DELETE", "/demo/v1/sessions/\(id)"),
         ("GET", "/demo/v1/mediaItems?sessionId=\(id)"), ("GET", "/demo/v1/media/\(id)/\(UUID().uuidString)/1999999999=d")]
    }

    /// The path of the `pickerUri` in a session's JSON.
    private static func pickerPath(in session: [String: Any]) throws -> String {
        let uri = try #require(session["pickerUri"] as? String)
        return try #require(URLComponents(string: uri)?.percentEncodedPath)
    }

    @Test func withoutThePersonsSignInThePageIsTheSignInPageAndTheMirrorRefuses() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let own = try await server.server.makeOwnSession()
        let page = try await server.request("GET", "/demo/", authorized: false)
        #expect(page.status == 401)
        #expect(String(decoding: page.body, as: UTF8.self).contains("Sign in"))
        // The operator is offered one new link, which leads back to the page.
        #expect(server.shownSignInLinks.all.count == 1)
        #expect(server.shownSignInLinks.all.last?.hasSuffix("?next=/demo/") == true)
        for (method, path) in Self.mirrorRoutes(session: own.id) {
            for authorized in [false, true] { // nothing, then the client key alone
                let answer = try await server.request(method, path, headers: ["Origin": server.baseURL.absoluteString],
                                                      body: method == "POST" ? Data("{}".utf8) : nil, authorized: authorized)
                #expect(answer.status == 401, "\(method) \(path), key: \(authorized)")
                // In the client API's form, as every answer of the mirror.
                #expect((answer.json["error"] as? [String: Any])?["status"] as? String == "UNAUTHENTICATED", "\(method) \(path)")
                #expect(answer.errorMessage.contains("sign-in link"), "\(method) \(path)")
            }
        }
        // With the client key the page is no more: the key opens nothing of the person's.
        #expect(try await server.request("GET", "/demo/").status == 401)
        #expect(server.sessionCount == 1)
    }

    @Test func theSignedInPersonGetsThePageUnderTheSameRulesAsThePicker() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let page = try await server.request("GET", "/demo/", authorized: false, asPerson: true)
        #expect(page.status == 200)
        #expect(page.header("Content-Security-Policy")?.contains("script-src 'self'") == true)
        #expect(page.header("Referrer-Policy") == "no-referrer")
        #expect(String(decoding: page.body, as: UTF8.self).contains("/demo.js\""))
        // A sign-in link may go on to it, and to nowhere else outside the picker.
        #expect(PickerServer.signInPath(link: "abc.def", next: "/demo/") == "/signin/abc.def?next=/demo/")
        #expect(PickerServer.signInPath(link: "abc.def", next: "/demo/v1/sessions") == "/signin/abc.def")
        #expect(PickerServer.signInPath(link: "abc.def", next: "/demo/../v1/sessions") == "/signin/abc.def")
    }

    @Test func creatingASessionMustComeFromOneOfThisServersPages() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let base = server.baseURL.absoluteString
        let https = "https://" + base.dropFirst("http://".count) // the right host and port, another scheme
        for headers in [["Origin": ""], ["Origin": "http://evil.example"], ["Origin": "null"], ["Origin": https],
                        ["Origin": base, "Sec-Fetch-Site": "cross-site"], ["Origin": base, "Sec-Fetch-Site": "same-site"]] {
            let answer = try await server.request("POST", "/demo/v1/sessions", headers: headers, body: Data("{}".utf8),
                                                  authorized: false, asPerson: true)
            #expect(answer.status == 403, "\(headers)")
            #expect((answer.json["error"] as? [String: Any])?["status"] as? String == "PERMISSION_DENIED", "\(headers)")
        }
        #expect(server.sessionCount == 0)
        let own = try await server.request("POST", "/demo/v1/sessions", headers: ["Sec-Fetch-Site": "same-origin"], body: Data("{}".utf8),
                                           authorized: false, asPerson: true)
        #expect(own.status == 200)
        #expect(server.sessionCount == 1)
    }

    @Test func aClientProgramsSessionIsUnknownThroughTheMirror() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let theirs = try await server.client.createSession()
        let ids = try await server.picker(theirs).cameraRollIDs(media: "photo")
        try await server.picker(theirs).pick([ids[0]])
        let item = try #require(try await server.client.mediaItems(in: theirs.id).first)
        // Answered as the client API answers a session that never existed, byte for byte.
        let unknown = try await server.request("GET", "/v1/sessions/\(UUID().uuidString)")
        #expect(unknown.status == 404)
        #expect(try await server.request("GET", "/demo/v1/sessions/\(UUID().uuidString)", authorized: false, asPerson: true).body == unknown.body)
        for (method, path) in Self.mirrorRoutes(session: theirs.id).dropFirst() + [("GET", "/demo" + item.baseURLPath + "=w64-h64")] {
            let answer = try await server.request(method, path, authorized: false, asPerson: true)
            #expect(answer.status == 404, "\(method) \(path)")
            #expect(answer.body == unknown.body, "\(method) \(path)")
        }
        // The client's session is as it was: not deleted, its pick still its own.
        #expect(try await server.client.session(theirs.id).mediaItemsSet)
        #expect(try await server.request("GET", item.baseURLPath + "=w64-h64").status == 200)
        // In the picker it is no session of the person's own: Done leads nowhere else.
        let mine = try await server.request("POST", "/demo/v1/sessions", body: Data("{}".utf8), authorized: false, asPerson: true).json
        let minePath = try Self.pickerPath(in: mine)
        #expect(try await server.request("GET", minePath + "api/session", authorized: false, asPerson: true).json["clientView"] as? Bool == true)
        let other = try await server.client.createSession()
        #expect(try await server.picker(other).get("session").json["clientView"] as? Bool == false)
    }

    @Test func theMirrorAnswersTheClientAPIsVeryBytes() async throws {
        let clock = TestClock()
        let server = try await TestServer.indexed(sessions: MemorySessionStore(now: { clock.now }))
        defer { Task { await server.stop() } }
        let body = try JSONSerialization.data(withJSONObject: ["pickingConfig": ["maxItemCount": "3"], "mediaFilter": "photo", "order": "pick"])
        let created = try await server.request("POST", "/demo/v1/sessions", body: body, authorized: false, asPerson: true)
        #expect(created.status == 200)
        let id = try #require(created.json["id"] as? String)
        #expect(created.header("Location") == "/v1/sessions/\(id)")
        #expect(created.body == (try await server.request("GET", "/v1/sessions/\(id)")).body)
        let pickerPath = try Self.pickerPath(in: created.json)
        let person = PersonAtPicker(server: server, apiPath: pickerPath + "api/")
        let ids = try await person.cameraRollIDs(media: "photo")
        try await person.pick([ids[2], ids[0]])

        for path in ["/v1/sessions/\(id)", "/v1/mediaItems?sessionId=\(id)", "/v1/mediaItems?sessionId=\(id)&pageSize=1"] {
            let client = try await server.request("GET", path)
            let mirror = try await server.request("GET", "/demo" + path, authorized: false, asPerson: true)
            #expect(client.status == 200, "\(path)")
            #expect(mirror.status == client.status, "\(path)")
            #expect(mirror.body == client.body, "\(path)")
        }
        let firstPage = try await server.request("GET", "/v1/mediaItems?sessionId=\(id)&pageSize=1").json
        let token = try #require(firstPage["nextPageToken"] as? String)
        let secondPath = "/v1/mediaItems?sessionId=\(id)&pageSize=1&pageToken=\(token)"
        #expect(try await server.request("GET", "/demo" + secondPath, authorized: false, asPerson: true).body
            == (try await server.request("GET", secondPath)).body)

        let items = try await server.client.mediaItems(in: id)
        #expect(items.map(\.id) == [ids[2], ids[0]])
        for item in items {
            for parameters in ["=w64-h64-c", "=d"] {
                let client = try await server.request("GET", item.baseURLPath + parameters)
                let mirror = try await server.request("GET", "/demo" + item.baseURLPath + parameters, authorized: false, asPerson: true)
                #expect(client.status == 200, "\(parameters)")
                #expect(mirror.status == 200, "\(parameters)")
                #expect(mirror.body == client.body, "\(item.id)\(parameters)")
                #expect(mirror.header("Content-Type") == client.header("Content-Type"))
            }
        }
        // Deleted through the mirror, as a client deletes: gone for both.
        #expect(try await server.request("DELETE", "/demo/v1/sessions/\(id)", authorized: false, asPerson: true).body == Data("{}".utf8))
        #expect(try await server.request("GET", "/v1/sessions/\(id)").status == 404)
        #expect(try await server.request("GET", "/demo/v1/sessions/\(id)", authorized: false, asPerson: true).status == 404)
    }

    @Test func thePersonsOwnSessionsAreBoundedAndEndWithTheirSessions() async throws {
        let clock = TestClock()
        var limits = PickerServerLimits.forTests
        limits.ownSessions = 3
        let server = try await TestServer.indexed(sessions: MemorySessionStore(lifetime: .seconds(600), ownCapacity: 3, now: { clock.now }), limits: limits)
        defer { Task { await server.stop() } }
        func create() async throws -> HTTPAnswer {
            try await server.request("POST", "/demo/v1/sessions", body: Data("{}".utf8), authorized: false, asPerson: true)
        }
        let atStart = try await server.server.makeOwnSession() // the server's own counts among them
        let first = try await create(), second = try await create()
        #expect(first.status == 200)
        #expect(second.status == 200)
        let refused = try await create()
        #expect(refused.status == 429)
        #expect((refused.json["error"] as? [String: Any])?["status"] as? String == "RESOURCE_EXHAUSTED")
        #expect(refused.errorMessage.contains("3 sessions of your own"))
        #expect(server.sessionCount == 3)
        // Client programs are not held up by the person's sessions.
        _ = try await server.client.createSession()
        // One deleted (through the mirror, or by a client with the key) makes room for one more.
        let firstID = try #require(first.json["id"] as? String)
        #expect(try await server.request("DELETE", "/demo/v1/sessions/\(firstID)", authorized: false, asPerson: true).status == 200)
        #expect(try await create().status == 200)
        #expect(try await create().status == 429)
        #expect(try await server.request("DELETE", "/v1/sessions/\(atStart.id)").status == 200)
        #expect(try await create().status == 200)
        // They expire with their sessions; then the person may make as many again.
        clock.advance(601)
        #expect(try await server.request("GET", "/demo/v1/sessions/\(try #require(second.json["id"] as? String))",
                                         authorized: false, asPerson: true).status == 404)
        for _ in 0..<3 { #expect(try await create().status == 200) }
        #expect(try await create().status == 429)
    }

    /// The outside attack's F2: the client filled the shared store, then the person's page got 429.
    @Test func clientProgramsCannotTakeThePlacesKeptForThePersonsOwnSessions() async throws {
        var limits = PickerServerLimits.forTests
        limits.ownSessions = 2
        let server = try await TestServer.indexed(sessions: MemorySessionStore(capacity: 5, ownCapacity: 2), limits: limits)
        defer { Task { await server.stop() } }
        func createAsPerson() async throws -> HTTPAnswer {
            try await server.request("POST", "/demo/v1/sessions", body: Data("{}".utf8), authorized: false, asPerson: true)
        }
        func createAsClient() async throws -> HTTPAnswer {
            try await server.request("POST", "/v1/sessions", body: Data("{}".utf8))
        }
        // The client fills every place it may: the capacity less the two kept for the person.
        for _ in 0..<3 { #expect(try await createAsClient().status == 200) }
        let full = try await createAsClient()
        #expect(full.status == 429)
        #expect((full.json["error"] as? [String: Any])?["status"] as? String == "RESOURCE_EXHAUSTED")
        // The person's page still makes its own, up to its bound.
        #expect(try await createAsPerson().status == 200)
        #expect(try await createAsPerson().status == 200)
        #expect(try await createAsPerson().status == 429)
        #expect(server.sessionCount == 5)
        // The person's sessions leave the client's places as they were: none freed, none taken.
        #expect(try await createAsClient().status == 429)
    }

    @Test func theServersOwnSessionIsOneOfThePersons() async throws {
        // A clock that stands still: the baseUrls' expiry in the two answers compared is the same.
        let clock = TestClock()
        let server = try await TestServer.indexed(sessions: MemorySessionStore(now: { clock.now }))
        defer { Task { await server.stop() } }
        let own = try await server.server.makeOwnSession()
        let pickerPath = "/picker/\(own.id)/\(own.pickerToken)/"
        #expect(try await server.request("GET", pickerPath + "api/session", authorized: false, asPerson: true).json["clientView"] as? Bool == true)
        let person = PersonAtPicker(server: server, apiPath: pickerPath + "api/")
        let ids = try await person.cameraRollIDs(media: "photo")
        try await person.pick([ids[1]])
        let shown = try await server.request("GET", "/demo/v1/mediaItems?sessionId=\(own.id)", authorized: false, asPerson: true)
        #expect(shown.status == 200)
        #expect(shown.body == (try await server.request("GET", "/v1/mediaItems?sessionId=\(own.id)")).body)
        #expect(((shown.json["mediaItems"] as? [[String: Any]])?.first?["id"] as? String) == ids[1])
    }
}
