import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PickerClient
import Testing
import TestSupport

/// The whole session flow over real HTTP: a client asks, a person picks, the client reads.
@Suite struct SessionFlowTests {
    @Test func clientReceivesExactlyThePicksInPickOrder() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let client = server.client
        let session = try await client.createSession(PickerSessionOptions(maxItemCount: 5, order: "pick"))
        #expect(session.mediaItemsSet == false)
        #expect(session.state == "picking")
        #expect(session.pickerUri.absoluteString.hasPrefix(server.baseURL.absoluteString + "/picker/\(session.id)/"))
        #expect(session.id.count >= 22) // 128 random bits in base64url
        let person = server.picker(session)
        let ids = try await person.cameraRollIDs()
        #expect(ids.count == 11)
        let largest = try await person.largestPhotoID()
        let others = ids.filter { $0 != largest }
        let picks = [others[4], largest, others[0], others[7]]
        try await person.pick(picks)

        let finished = try await client.waitUntilPicked(session.id)
        #expect(finished.state == "complete")
        #expect(finished.pickedCount == 4)
        let items = try await client.mediaItems(in: session.id)
        #expect(items.map(\.id) == picks)

        // Renditions are never larger than the original: ask one that is large enough.
        let large = try #require(items.first { $0.mediaFile.mediaFileMetadata.width >= 300 && $0.mediaFile.mediaFileMetadata.height >= 200 })
        let jpeg = try await client.content(of: large, .crop(width: 300, height: 200))
        #expect(ImageFileProbe.jpegSize(jpeg)! == (300, 200))
        let fitted = try await client.content(of: items[1], .fit(width: 160, height: 160))
        let size = try #require(ImageFileProbe.jpegSize(fitted))
        #expect(max(size.width, size.height) == 160)

        // The picker URI stops working once the person pressed Done.
        #expect(try await server.request("GET", session.pickerPath, authorized: false, asPerson: true).status == 410)
        #expect(try await person.send("POST", "selection/\(others[1])").status == 410)
    }

    @Test func dateOrderHandsPicksOverOldestFirst() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession(PickerSessionOptions(maxItemCount: 4, order: "date"))
        let ids = try await server.picker(session).cameraRollIDs() // newest first
        try await server.picker(session).pick([ids[1], ids[5], ids[0], ids[3]])
        let items = try await server.client.mediaItems(in: session.id)
        #expect(items.map(\.id) == [ids[5], ids[3], ids[1], ids[0]])
        #expect(items.map(\.createTime) == items.map(\.createTime).sorted())
    }

    @Test func cancelCompletesTheSessionWithNoItems() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let person = server.picker(session)
        try await person.pick([try await person.cameraRollIDs()[0]], thenDone: false)
        #expect(try await person.send("POST", "cancel").status == 200)
        let finished = try await server.client.session(session.id)
        #expect(finished.mediaItemsSet)
        #expect(finished.state == "cancelled")
        #expect(try await server.client.mediaItems(in: session.id).isEmpty)
    }

    @Test func itemsArePagedWithTokens() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let person = server.picker(session)
        let ids = try await person.cameraRollIDs()
        try await person.pick(Array(ids.prefix(5)))
        var seen: [String] = []
        var token: String?
        var pages = 0
        repeat {
            let page = try await server.client.mediaItemsPage(in: session.id, pageSize: 2, pageToken: token)
            seen += page.mediaItems.map(\.id)
            token = page.nextPageToken
            pages += 1
        } while token != nil
        #expect(pages == 3)
        #expect(seen == Array(ids.prefix(5)))
        let bad = try await server.request("GET", "/v1/mediaItems?sessionId=\(session.id)&pageToken=xyz")
        #expect(bad.status == 400)
        #expect(bad.errorMessage.contains("pageToken"))
    }

    @Test func itemsBeforeDoneAreRefusedUntilThePersonFinishes() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let answer = try await server.request("GET", "/v1/mediaItems?sessionId=\(session.id)")
        #expect(answer.status == 400)
        #expect((answer.json["error"] as? [String: Any])?["status"] as? String == "FAILED_PRECONDITION")
        #expect(answer.errorMessage.contains("mediaItemsSet"))
    }

    @Test func preselectedDraftIsMigratedAndPrunedAndTheDroppedAreShownToThePersonOnly() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let probe = try await server.client.createSession()
        let ids = try await server.picker(probe).cameraRollIDs()
        let legacy = "assets-library://asset/asset.JPG?id=\(ids[2])&ext=JPG"
        let gone = UUID().uuidString
        let session = try await server.client.createSession(PickerSessionOptions(maxItemCount: 3, preselected: [legacy, gone, ids[0], "not an id"]))
        // Nothing is looked up while the client waits: the identifiers are kept as given until
        // the person opens the picker, so no answer to the client (nor its timing) depends on them.
        let stored = try #require(try await server.server.sessions.session(session.id))
        #expect(stored.pendingPreselection == [legacy, gone, ids[0], "not an id"])
        #expect(stored.selection.count == 0)
        let state = try await server.picker(session).get("session").json
        let selection = try #require(state["selection"] as? [String: Any])
        #expect(selection["ids"] as? [String] == [ids[2], ids[0]])
        #expect(state["droppedPreselected"] as? [String] == [gone, "not an id"])
        #expect(try await server.server.sessions.session(session.id)?.pendingPreselection == [])
        // Resolved once: a second look changes nothing, an unpick stays unpicked.
        #expect(try await server.picker(session).send("DELETE", "selection/\(ids[0])").status == 200)
        let again = try await server.picker(session).get("session").json
        #expect((again["selection"] as? [String: Any])?["ids"] as? [String] == [ids[2]])
    }
}
