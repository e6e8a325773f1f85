import AssetsKit
import Foundation
import IndexedLibrary
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LibraryTree
import PickerClient
import Testing
import TestSupport

/// What neither principal may learn or reach beyond its due: guessed identifiers, deleted and
/// hidden assets, the server's paths; and answers that hold to the documents.
@Suite struct PrivacyTests {
    @Test func preselectingGuessedIdentifiersTellsTheClientNothing() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        // Identifiers are name-based: a client can compute the one of a path it guesses.
        let existing = AssetUUID.forFile(atRelativePath: "DCIM/100CAMERA/clip.mp4").uuidString
        let missing = AssetUUID.forFile(atRelativePath: "DCIM/100CAMERA/clip2.mp4").uuidString
        var answers: [[String: Any]] = []
        for preselected in [[existing], [missing], [missing, "not an id"], []] {
            let body = try JSONSerialization.data(withJSONObject: ["pickingConfig": ["maxItemCount": "5"], "preselected": preselected])
            let created = try await server.request("POST", "/v1/sessions", headers: ["Content-Type": "application/json"], body: body)
            #expect(created.status == 200)
            var json = created.json
            let id = try #require(json["id"] as? String)
            let polled = try await server.request("GET", "/v1/sessions/\(id)").json
            #expect(Set(polled.keys) == Set(json.keys))
            for varying in ["id", "pickerUri", "expireTime", "pollingConfig"] { json[varying] = nil }
            answers.append(json)
        }
        let shapes = answers.map { String(decoding: try! JSONSerialization.data(withJSONObject: $0, options: .sortedKeys), as: UTF8.self) }
        #expect(Set(shapes).count == 1, "\(shapes)")
        #expect(!shapes[0].contains("dropped"))
    }

    @Test func recentlyDeletedAndHiddenAssetsAreNeitherListedNorPickable() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let person = server.picker(session)
        let ids = try await person.cameraRollIDs()
        let (deleted, hidden) = (ids[0], ids[1])
        let identifier = { (id: String) in AssetIdentifier.local(LocalIdentifier(uuid: UUID(uuidString: id)!)) }
        _ = try await #require(server.library.changing).performChanges([.delete([identifier(deleted)]), .setHidden([identifier(hidden)], true)])

        let albums = try await person.get("albums").json["albums"] as? [[String: Any]] ?? []
        #expect(!albums.contains { ($0["id"] as? String)?.contains("deleted") == true })
        let trash = try await person.get("albums/smart%3Arecently-deleted/assets")
        #expect(trash.status == 404)
        #expect(trash.body == (try await person.get("albums/no%3Asuch/assets")).body)
        let listed = try await person.cameraRollIDs()
        for id in [deleted, hidden] {
            #expect(!listed.contains(id))
            #expect(try await person.send("POST", "selection/\(id)").status == 404)
            #expect(try await person.send("PUT", "selection", json: ["ids": [id]]).status == 404)
            #expect(try await person.get("assets/\(id)/image?w=64&h=64").status == 404)
            #expect(try await person.get("assets/\(id)/original").status == 404)
        }
        let preselected = try await server.client.createSession(PickerSessionOptions(preselected: [deleted, hidden, ids[2]]))
        #expect((try await server.picker(preselected).get("session").json["selection"] as? [String: Any])?["ids"] as? [String] == [ids[2]])
    }

    @Test func anAssetDeletedElsewhereAfterThePickerListedItCannotBePicked() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let person = server.picker(try await server.client.createSession())
        let ids = try await person.cameraRollIDs(media: "photo")
        // Another process (here a second library over the same index) deletes a listed photo;
        // this server hears nothing of it, its memo of listed assets still holds the photo.
        let elsewhere = try IndexedLibrary(root: server.root, databaseURL: TestServer.indexURL(forLibrary: server.root))
        _ = try await elsewhere.performChanges([.delete([.local(LocalIdentifier(uuid: UUID(uuidString: ids[0])!))])])
        #expect(try await person.send("POST", "selection/\(ids[0])").status == 404)
        #expect(try await person.send("PUT", "selection", json: ["ids": [ids[1], ids[0]]]).status == 404)
        #expect(try await person.send("POST", "selection/\(ids[1])").status == 200)
    }

    @Test func picksDeletedOrHiddenAfterDoneAreNoLongerTheClients() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let person = server.picker(session)
        let ids = try await person.cameraRollIDs(media: "photo")
        try await person.pick(Array(ids.prefix(3)))
        let items = try await server.client.mediaItems(in: session.id)
        #expect(items.map(\.id) == Array(ids.prefix(3)))
        let identifier = { (id: String) in AssetIdentifier.local(LocalIdentifier(uuid: UUID(uuidString: id)!)) }
        _ = try await #require(server.library.changing).performChanges([.delete([identifier(ids[0])]), .setHidden([identifier(ids[2])], true)])
        #expect(try await server.client.mediaItems(in: session.id).map(\.id) == [ids[1]])
        #expect(try await server.client.session(session.id).pickedCount == 1)
        for item in [items[0], items[2]] {
            #expect(try await server.request("GET", item.baseURLPath + "=d").status == 404)
            #expect(try await server.request("GET", item.baseURLPath + "=w32-h32").status == 404)
        }
        #expect(try await server.request("GET", items[1].baseURLPath + "=d").status == 200)
    }

    @Test func thePickerUriIsOnTheServersOwnAddressWhateverHostTheRequestNamed() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let port = try #require(server.baseURL.port)
        for host in ["evil.example", "evil.example:\(port)", "127.0.0.1:1"] {
            let (answers, _) = await RawHTTPExchange.exchange(port: port, method: "POST", host: host, body: "{}", [
                ("/v1/sessions", ["Authorization: Bearer \(server.clientKey)", "Content-Type: application/json"]),
            ])
            let answer = try #require(answers.first)
            #expect(answer.status == 200)
            let json = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any] ?? [:]
            let uri = try #require(json["pickerUri"] as? String)
            #expect(uri.hasPrefix(server.baseURL.absoluteString + "/picker/"), "Host \(host): \(uri)")
        }
    }

    @Test func errorAnswersNameNoServerPath() async throws {
        // Damaged files, some of which index but cannot be rendered.
        let hostile = Corpus.files(in: "D_hostile") { ["jpg", "png"].contains($0.pathExtension.lowercased()) }
        let server = try await TestServer.indexed(adding: hostile)
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let person = server.picker(session)
        let ids = try await person.cameraRollIDs()
        var refused = 0
        for id in ids {
            for path in ["assets/\(id)/image?w=300&h=300", "assets/\(id)/original"] {
                let answer = try await person.get(path)
                guard answer.status >= 400 else { continue }
                refused += 1
                let text = String(decoding: answer.body, as: UTF8.self)
                #expect(!text.contains(server.root.path), "\(path): \(text)")
                #expect(!text.contains("/DCIM/"), "\(path): \(text)")
            }
        }
        #expect(refused > 0)
    }

    @Test func aRepeatedIdInAReplacementCountsOnce() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let person = server.picker(try await server.client.createSession())
        let ids = try await person.cameraRollIDs()
        let answer = try await person.send("PUT", "selection", json: ["ids": [ids[1], ids[0], ids[1], ids[0].lowercased()]])
        #expect(answer.status == 200)
        #expect((answer.json["selection"] as? [String: Any])?["ids"] as? [String] == [ids[1], ids[0]])
    }
}
