import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PickerClient
import PickerSessions
import PostgresIndex
import PostgresSessions
import PostgresTestSupport
import Testing
import TestSupport

/// Two picker servers over one library and one PostgreSQL session store, as behind a load
/// balancer: whichever server a request of a session reaches answers it.
@Suite struct SharedSessionsTests {
    @Test func aSessionMadeThroughOneServerIsPickedDoneListedAndServedThroughTheOther() async throws {
        let database = try await PostgresServer.shared().makeDatabase()
        let first = try await TestServer.indexed(sessions: PostgresSessionStore(database: PostgresPool(address: database)))
        let second = try await TestServer(library: first.library, root: first.root,
                                          sessions: PostgresSessionStore(database: PostgresPool(address: database)),
                                          signIn: PersonSignIn(), port: 0)
        defer { Task { await second.stop(); await first.stop() } }
        let session = try await first.client.createSession(PickerSessionOptions(maxItemCount: 3, order: "pick"))
        #expect(try await second.client.session(session.id).state == "picking")
        // The person's clicks land on either server; both see one selection.
        let ids = try await second.picker(session).cameraRollIDs()
        try await second.picker(session).pick([ids[3]], thenDone: false)
        try await first.picker(session).pick([ids[0]], thenDone: false)
        let shown = try await second.picker(session).get("session").json["selection"] as? [String: Any]
        #expect(shown?["ids"] as? [String] == [ids[3], ids[0]])
        #expect(try await second.picker(session).send("POST", "done").status == 200)
        // Done through one server is Done on the other.
        #expect(try await first.picker(session).send("POST", "selection/\(ids[1])").status == 410)
        #expect(try await first.picker(session).send("POST", "done").status == 410)
        #expect(try await first.request("GET", session.pickerPath, authorized: false, asPerson: true).status == 410)
        // The client polls and lists through either.
        #expect(try await first.client.waitUntilPicked(session.id).pickedCount == 2)
        let items = try await second.client.mediaItems(in: session.id)
        #expect(items.map(\.id) == [ids[3], ids[0]])
        // A base URL listed through one server is served by the other; an expiry edited later is not.
        let path = items[0].baseURLPath
        #expect(try await first.request("GET", path + "=w64-h64").status == 200)
        let expiry = try #require(path.split(separator: "/").last.flatMap { Int64($0) })
        let edited = path.split(separator: "/").dropLast().joined(separator: "/") + "/\(expiry + 60)"
        #expect(try await first.request("GET", "/" + edited + "=w64-h64").status == 404)
        // Deleted through one, unknown to both.
        try await second.client.deleteSession(session.id)
        #expect(try await first.request("GET", "/v1/sessions/\(session.id)").status == 404)
    }
}
