import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PickerClient
import Testing
import TestSupport

/// The person's side: what the picker page's API lists and lets them do.
@Suite struct PickerPageTests {
    @Test func albumsListTheCameraRollFirstWithCountsAndPosters() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let person = server.picker(try await server.client.createSession())
        let albums = try #require(try await person.get("albums").json["albums"] as? [[String: Any]])
        #expect(albums.first?["kind"] as? String == "cameraRoll")
        #expect(albums.first?["count"] as? Int == 11)
        let directories = albums.filter { $0["kind"] as? String == "directory" }
        #expect(Set(directories.compactMap { $0["title"] as? String }).isSuperset(of: ["100CAMERA", "Trips"]))
        let trips = try #require(directories.first { $0["title"] as? String == "Trips" })
        #expect(trips["count"] as? Int == 4)
        let poster = try #require(trips["posterId"] as? String)
        let thumbnail = try await person.get("assets/\(poster)/image?w=64&h=64&mode=fill")
        #expect(ImageFileProbe.jpegSize(thumbnail.body)! == (64, 64))
        #expect(!albums.contains { ($0["id"] as? String)?.hasSuffix("recently-deleted") == true })
    }

    @Test func aQuickAnswerIsCacheableOnlyOnceTheFinalImageWasAnswered() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let person = server.picker(try await server.client.createSession())
        let photo = try #require(try await person.cameraRollIDs(media: "photo").last)
        let path = "assets/\(photo)/image?w=96&h=96&mode=fill"
        let standIn = try await person.get(path + "&delivery=fast")
        #expect(standIn.status == 200)
        #expect(standIn.header("Cache-Control") == "no-store")
        #expect(standIn.header("ETag") == nil)
        #expect(standIn.header("Server-Timing") == nil)
        let final = try await person.get(path)
        let tag = try #require(final.header("ETag"))
        #expect(ImageFileProbe.jpegSize(final.body)! == (96, 96))
        let quick = try await person.get(path + "&delivery=fast")
        #expect(quick.header("ETag") == tag)
        #expect(quick.header("Cache-Control") == final.header("Cache-Control"))
        #expect(quick.header("X-Image-Degraded") == "0")
        #expect(quick.header("Server-Timing") == "final") // the page reads it: no upgrade needed
        #expect(final.header("Server-Timing") == "final")
        #expect(quick.body == final.body)
        #expect(try await person.get(path + "&delivery=fast", headers: ["If-None-Match": tag]).status == 304)
        #expect(try await person.get(path, headers: ["If-None-Match": tag]).status == 304)
    }

    @Test func windowsPageTheCameraRollInBothOrders() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let person = server.picker(try await server.client.createSession())
        let all = try await person.cameraRollIDs()
        let first = try await person.get("albums/smart%3Aall/assets?offset=0&limit=4").json
        let second = try await person.get("albums/smart%3Aall/assets?offset=4&limit=4").json
        #expect(first["total"] as? Int == 11)
        let paged = ((first["items"] as? [[String: Any]] ?? []) + (second["items"] as? [[String: Any]] ?? [])).compactMap { $0["id"] as? String }
        #expect(paged == Array(all.prefix(8)))
        let oldest = try await person.get("albums/smart%3Aall/assets?sort=oldest&limit=500").json
        #expect((oldest["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String } == all.reversed())
        #expect(try await person.get("albums/smart%3Aall/assets?limit=0").status == 400)
        #expect(try await person.get("albums/smart%3Aall/assets?sort=sideways").status == 400)
        #expect(try await person.get("albums/no%3Asuch/assets").status == 404)
    }

    @Test func theMaximumIsEnforcedWithAClearMessage() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let person = server.picker(try await server.client.createSession(PickerSessionOptions(maxItemCount: 2)))
        let ids = try await person.cameraRollIDs()
        try await person.pick(Array(ids.prefix(2)), thenDone: false)
        let third = try await person.send("POST", "selection/\(ids[2])")
        #expect(third.status == 409)
        #expect((third.json["error"] as? [String: Any])?["code"] as? String == "maximumReached")
        #expect(third.errorMessage.contains("up to 2"))
        let range = try await person.send("PUT", "selection", json: ["ids": Array(ids.prefix(3))])
        #expect(range.status == 409)
        let session = try await person.get("session").json
        #expect((session["selection"] as? [String: Any])?["ids"] as? [String] == Array(ids.prefix(2)))
        // Unpicking makes room; replacing keeps the given order.
        #expect(try await person.send("DELETE", "selection/\(ids[0])").status == 200)
        let replaced = try await person.send("PUT", "selection", json: ["ids": [ids[5], ids[3]]]).json
        let selection = try #require(replaced["selection"] as? [String: Any])
        #expect(selection["ids"] as? [String] == [ids[5], ids[3]])
        #expect(selection["count"] as? Int == 2)
        #expect((selection["byteSize"] as? Int ?? 0) > 0)
    }

    @Test func theMediaFilterHidesOtherMedia() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let videos = try await server.picker(try await server.client.createSession()).cameraRollIDs(media: "video")
        #expect(videos.count == 1)
        let person = server.picker(try await server.client.createSession(PickerSessionOptions(mediaFilter: "photo")))
        let visible = try await person.cameraRollIDs()
        #expect(visible.count == 10)
        #expect(!visible.contains(videos[0]))
        #expect(try await person.send("POST", "selection/\(videos[0])").status == 404)
        #expect(try await person.get("assets/\(videos[0])/original").status == 404)
    }

    @Test func anUploadIsImportedAndComesBackPicked() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let person = server.picker(session)
        let photo = try Data(contentsOf: Corpus.files(in: "B_orientation") { $0.pathExtension.lowercased() == "jpg" }.sorted { $0.path < $1.path }[0])
        // The name percent-encoded, as the page sends it (encodeURIComponent): kept with its space.
        let upload = try await server.request("POST", session.pickerPath + "api/upload?filename=my%20camera.jpg",
                                              headers: ["Content-Type": "image/jpeg"], body: photo, authorized: false, asPerson: true)
        #expect(upload.status == 201)
        let item = try #require(upload.json["item"] as? [String: Any])
        #expect(item["filename"] as? String == "my camera.jpg")
        #expect(upload.json["selected"] as? Bool == true)
        #expect(try await person.cameraRollIDs().contains(try #require(item["id"] as? String)))
        let album = try await person.send("POST", "albums", json: ["title": "From the picker"])
        #expect(album.status == 201)
        let albums = try await person.get("albums").json["albums"] as? [[String: Any]] ?? []
        #expect(albums.contains { $0["title"] as? String == "From the picker" })
        // The upload's dated folder is titled with its path, not by its month's number alone.
        let titles = albums.compactMap { $0["title"] as? String }
        #expect(titles.contains { $0.wholeMatch(of: /Imports \/ \d{4} \/ \d{2}/) != nil }, "\(titles)")
        #expect(!titles.contains { $0.allSatisfy(\.isNumber) })
        #expect(try await person.send("POST", "upload?filename=..").status == 400)
    }

    @Test func aFolderLibraryTakesNoUploads() async throws {
        let server = try await TestServer.folder()
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let person = server.picker(session)
        let state = try await person.get("session").json
        #expect((state["library"] as? [String: Any])?["canImport"] as? Bool == false)
        let upload = try await server.request("POST", session.pickerPath + "api/upload?filename=a.jpg", body: Data([1, 2, 3]), authorized: false, asPerson: true)
        #expect(upload.status == 403)
        // Picking works the same over the folder backend.
        let ids = try await person.cameraRollIDs()
        #expect(ids.count == 11)
        try await person.pick([ids[3]])
        #expect(try await server.client.mediaItems(in: session.id).map(\.id) == [ids[3]])
    }

    @Test func theEventStreamTellsOfLibraryAndSessionChanges() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession()
        let person = server.picker(session)
        let ids = try await person.cameraRollIDs()
        let library = server.library
        let connected = AsyncStream<Void>.makeStream()
        async let seen = EventStreamReader.events(
            port: server.baseURL.port!, path: session.pickerPath + "api/events", cookie: server.personCookie, timeout: HangGuard.defaultLimit,
            onConnected: { connected.continuation.yield() },
            until: { $0.contains("library") && $0.contains("session") })
        for await _ in connected.stream { break }
        _ = try await #require(library.changing).performChanges([.createAlbum(title: "Live")])
        _ = try await person.send("POST", "selection/\(ids[0])")
        let events = await seen
        #expect(events.contains("library"))
        #expect(events.contains("session"))
    }
}
