import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PickerClient
import PickerSessions
import Testing
import TestSupport

/// A client sees only what was picked in its session, with its credentials; sessions end.
@Suite struct AccessTests {
    @Test func everyIdentifierTheClientMayNotSeeIsAnsweredAsANonExistentOne() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let mine = try await server.client.createSession()
        let ids = try await server.picker(mine).cameraRollIDs()
        try await server.picker(mine).pick([ids[0]])
        let other = try await server.client.createSession()
        try await server.picker(other).pick([ids[1]])

        let refused = [
            ids[2], // in the library, not picked
            UUID().uuidString, // made up
            ids[1], // picked in another session
            "../../etc/passwd", "..%2F..%2Fetc%2Fpasswd", "%2e%2e%2f%2e%2e%2fetc%2fpasswd", "..%252F..%252Fetc%252Fpasswd",
            "%2Fetc%2Fpasswd", ids[0].lowercased() + "%00", ids[0] + "%2F..", "",
        ]
        let baseline = try await server.request("GET", try await server.mediaPath(session: mine.id, item: UUID().uuidString) + "=d")
        #expect(baseline.status == 404)
        for item in refused {
            for kind in ["=d", "=w10-h10", ""] {
                let answer = try await server.request("GET", try await server.mediaPath(session: mine.id, item: item) + kind)
                #expect(answer.status == 404, "\(item) \(kind)")
                #expect(answer.body == baseline.body, "\(item) \(kind)")
            }
        }
        // The picked one is served, and the other session's only in the other session.
        #expect(try await server.request("GET", try await server.mediaPath(session: mine.id, item: ids[0]) + "=w10-h10").status == 200)
        #expect(try await server.request("GET", try await server.mediaPath(session: other.id, item: ids[1]) + "=w10-h10").status == 200)
        // Unknown sessions look the same as unknown items, as does a listing of one.
        for path in [try await server.mediaPath(session: UUID().uuidString, item: ids[0]) + "=d", "/v1/mediaItems?sessionId=\(UUID().uuidString)"] {
            let unknown = try await server.request("GET", path)
            #expect(unknown.status == 404)
            #expect(unknown.body == baseline.body)
        }
    }

    @Test func theClientKeyIsRequiredAndChecked() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        for headers in [[:], ["Authorization": "Bearer wrong-key-wrong-key-wrong-key!"], ["Authorization": "Basic dGVzdDp0ZXN0"],
                        ["Authorization": "Bearer " + server.clientKey + "x"]] {
            let answer = try await server.request("GET", "/v1/sessions/\(session.id)", headers: headers, authorized: headers.isEmpty ? false : false)
            #expect(answer.status == 401)
            #expect(answer.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
        }
        let lowercaseScheme = try await server.request("GET", "/v1/sessions/\(session.id)",
                                                       headers: ["Authorization": "bearer " + server.clientKey], authorized: false)
        #expect(lowercaseScheme.status == 200)
    }

    @Test func aWrongPickerTokenIsAnUnknownSession() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let wrong = "/picker/\(session.id)/AAAAAAAAAAAAAAAAAAAAAA/"
        #expect(try await server.request("GET", wrong, authorized: false, asPerson: true).status == 404)
        #expect(try await server.request("GET", wrong + "api/albums", authorized: false, asPerson: true).status == 404)
        #expect(try await server.request("GET", session.pickerPath, authorized: false, asPerson: true).status == 200)
    }

    @Test func deletedSessionsAnswerNotFoundEverywhere() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let ids = try await server.picker(session).cameraRollIDs()
        try await server.picker(session).pick([ids[0]])
        let item = try #require(try await server.client.mediaItems(in: session.id).first)
        #expect(try await server.request("GET", item.baseURLPath + "=w20-h20").status == 200)
        try await server.client.deleteSession(session.id)
        for path in ["/v1/sessions/\(session.id)", "/v1/mediaItems?sessionId=\(session.id)", item.baseURLPath + "=d",
                     item.baseURLPath + "=w20-h20"] {
            #expect(try await server.request("GET", path).status == 404, "\(path)")
        }
        #expect(try await server.request("DELETE", "/v1/sessions/\(session.id)").status == 404)
        #expect(try await server.request("GET", session.pickerPath, authorized: false, asPerson: true).status == 404)
    }

    @Test func sessionsExpire() async throws {
        let clock = TestClock()
        let server = try await TestServer.indexed(sessions: MemorySessionStore(lifetime: .seconds(60), now: { clock.now }))
        defer { Task { await server.stop() } }
        let picked = try await server.client.createSession()
        let ids = try await server.picker(picked).cameraRollIDs()
        try await server.picker(picked).pick([ids[0]])
        let item = try #require(try await server.client.mediaItems(in: picked.id).first)
        let open = try await server.client.createSession()
        #expect(open.expireTime == clock.now.addingTimeInterval(60))
        #expect(open.pollingConfig.timeoutIn == .seconds(60))
        clock.advance(61)
        for path in ["/v1/sessions/\(picked.id)", "/v1/mediaItems?sessionId=\(picked.id)", item.baseURLPath + "=d"] {
            #expect(try await server.request("GET", path).status == 404, "\(path)")
        }
        // The person is told the picker ended, as after Done (the client, as for a deleted session, is not).
        #expect(try await server.request("GET", open.pickerPath, authorized: false, asPerson: true).status == 410)
        #expect(try await server.request("GET", open.pickerPath + "api/albums", authorized: false, asPerson: true).status == 410)
        #expect(try await server.request("GET", "/picker/\(open.id)/AAAAAAAAAAAAAAAAAAAAAA/", authorized: false, asPerson: true).status == 404)
        #expect(server.sessionCount == 0)
    }
}

extension AccessTests {
    @Test func aBaseURLWorksForSixtyMinutesFromItsListing() async throws {
        let clock = TestClock()
        let server = try await TestServer.indexed(sessions: MemorySessionStore(lifetime: .seconds(3 * 3_600), now: { clock.now }))
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let ids = try await server.picker(session).cameraRollIDs()
        try await server.picker(session).pick([ids[0]])
        let first = try #require(try await server.client.mediaItems(in: session.id).first)
        clock.advance(59 * 60)
        #expect(try await server.request("GET", first.baseURLPath + "=w20-h20").status == 200)
        clock.advance(2 * 60)
        let expired = try await server.request("GET", first.baseURLPath + "=w20-h20")
        #expect(expired.status == 404)
        // Listed again, the same item has a new base URL that works.
        let again = try #require(try await server.client.mediaItems(in: session.id).first)
        #expect(try await server.request("GET", again.baseURLPath + "=w20-h20").status == 200)
        // An expiry later than any listing could give is one the server never gave.
        let forged = "/v1/media/\(session.id)/\(ids[0])/\(Int64(clock.now.timeIntervalSince1970) + 7_200)=w20-h20"
        #expect(try await server.request("GET", forged).body == expired.body)
    }
}

extension AccessTests {
    /// Attack: a client keeps an expired base URL and edits its expiry to a later time, one a
    /// listing at that moment could have given, or one another session was given.
    @Test func aBaseURLWhoseExpiryWasEditedIsRefused() async throws {
        let clock = TestClock()
        let server = try await TestServer.indexed(sessions: MemorySessionStore(lifetime: .seconds(3 * 3_600), now: { clock.now }))
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let ids = try await server.picker(session).cameraRollIDs()
        try await server.picker(session).pick([ids[0]])
        let first = try #require(try await server.client.mediaItems(in: session.id).first)
        let listed = Int64(clock.now.timeIntervalSince1970)
        clock.advance(61 * 60)
        let expired = try await server.request("GET", first.baseURLPath + "=w20-h20")
        #expect(expired.status == 404)
        func edited(_ session: String, expiry: Int64) -> String { "/v1/media/\(session)/\(ids[0])/\(expiry)=w20-h20" }
        // Within 60 minutes of now, as a listing now would give, yet never given.
        for later in [listed + 3_601, listed + 3_660 + 1_800, Int64(clock.now.timeIntervalSince1970) + 3_600] {
            let answer = try await server.request("GET", edited(session.id, expiry: later))
            #expect(answer.status == 404 && answer.body == expired.body, "\(later)")
        }
        // Another session listed now: its expiry does not carry over to this session's URL.
        let other = try await server.client.createSession()
        try await server.picker(other).pick([ids[0]])
        let otherItem = try #require(try await server.client.mediaItems(in: other.id).first)
        #expect(try await server.request("GET", otherItem.baseURLPath + "=w20-h20").status == 200)
        let otherExpiry = try #require(Int64(otherItem.baseURLPath.split(separator: "/").last ?? ""))
        #expect(try await server.request("GET", edited(session.id, expiry: otherExpiry)).body == expired.body)
        // Listed again, the URL with the new expiry works; one second later does not.
        let again = try #require(try await server.client.mediaItems(in: session.id).first)
        let expiry = try #require(Int64(again.baseURLPath.split(separator: "/").last ?? ""))
        #expect(try await server.request("GET", again.baseURLPath + "=w20-h20").status == 200)
        #expect(try await server.request("GET", edited(session.id, expiry: expiry + 1)).body == expired.body)
    }
}
