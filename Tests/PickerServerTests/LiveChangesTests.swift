import AssetsKit
import Foundation
import IndexedLibrary
import LibraryOpening
import Logging
import PickerClient
import PickerServer
import TestSupport
import Testing

@Suite("Live changes in an open picker")
struct LiveChangesTests {
    @Test("a photo copied into the library folder reaches an open picker; deleted, it leaves")
    func copiedAndDeleted() async throws {
        let server = try await TestServer.indexed()
        var logger = Logger(label: "test-watcher")
        logger.logLevel = .critical
        // As `assets-picker serve` does.
        let watcher = await PickerServer.startWatching(server.library, logger: logger)
        defer {
            Task {
                await watcher?.stop()
                await server.stop()
            }
        }
        #expect(watcher != nil)
        let session = try await server.client.createSession()
        let person = server.picker(session)
        let before = try await cameraRollCount(person)
        let photo = server.root.appendingPathComponent("Trips/new.jpg")

        let added = await libraryEvent(server, session) {
            try? FileManager.default.copyItem(at: Corpus.file("A_camera_exif/jhead__canon-300d.jpg"), to: photo)
        }
        #expect(added)
        #expect(try await cameraRollCount(person) == before + 1)
        #expect(try await tripsCount(person) == 5)

        let removed = await libraryEvent(server, session) { try? FileManager.default.removeItem(at: photo) }
        #expect(removed)
        #expect(try await cameraRollCount(person) == before)
        #expect(try await tripsCount(person) == 4)
    }

    @Test("what another process deletes or hides is refused on every path once the server hears of it")
    func anotherProcessDeletesAndHides() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let session = try await server.client.createSession(PickerSessionOptions(maxItemCount: 5))
        let person = server.picker(session)
        let ids = try await person.cameraRollIDs(media: "photo")
        let (deleted, hidden) = (ids[0], ids[1])
        // Everything the server remembers of them is warm: listed, rendered, picked.
        for id in [deleted, hidden] {
            #expect(try await person.get("assets/\(id)/image?w=64&h=64&mode=fill").status == 200)
            #expect(try await person.get("assets/\(id)/original").status == 200)
        }
        let other = try await server.client.createSession(PickerSessionOptions(maxItemCount: 5))
        try await server.picker(other).pick([deleted, hidden, ids[2]])
        let items = try await server.client.mediaItems(in: other.id)
        #expect(items.count == 3)

        // Another process: the same index opened anew (its own connections, which the server's do not observe).
        let elsewhere = try await LibraryOpener().open(root: server.root, backend: .indexed, indexURL: TestServer.indexURL(forLibrary: server.root))
        let changing = try #require(elsewhere.changing)
        let identifier = { (id: String) in AssetIdentifier.local(LocalIdentifier(uuid: UUID(uuidString: id)!)) }
        _ = try await changing.performChanges([.delete([identifier(deleted)]), .setHidden([identifier(hidden)], true)])

        try await HangGuard.waitUntil("the server hearing of the other process's change") {
            try await person.get("assets/\(deleted)/image?w=64&h=64&mode=fill").status == 404
        }
        for id in [deleted, hidden] {
            for path in ["assets/\(id)/image?w=64&h=64&mode=fill", "assets/\(id)/original"] {
                #expect(try await person.get(path).status == 404, "\(path)")
            }
            #expect(try await person.send("POST", "selection/\(id)").status == 404)
        }
        for item in items.prefix(2) {
            #expect(try await server.request("GET", item.baseURLPath + "=w32-h32").status == 404)
            #expect(try await server.request("GET", item.baseURLPath + "=d").status == 404)
        }
        #expect(try await server.request("GET", items[2].baseURLPath + "=w32-h32").status == 200)
    }

    /// Opens the picker page's event stream, does `change` once it is open, and says whether
    /// an `event: library` came (waiting up to a hang guard of minutes).
    private func libraryEvent(_ server: TestServer, _ session: PickingSession, after change: @escaping @Sendable () -> Void) async -> Bool {
        let connected = AsyncStream<Void>.makeStream()
        async let seen = EventStreamReader.events(
            port: server.baseURL.port!, path: session.pickerPath + "api/events", cookie: server.personCookie, timeout: HangGuard.defaultLimit,
            onConnected: { connected.continuation.yield() }, until: { $0.contains("library") })
        for await _ in connected.stream { break }
        change()
        return await seen.contains("library")
    }

    private func albums(_ person: PersonAtPicker) async throws -> [[String: Any]] {
        try await person.get("albums").json["albums"] as? [[String: Any]] ?? []
    }

    private func cameraRollCount(_ person: PersonAtPicker) async throws -> Int {
        try #require(try await albums(person).first?["count"] as? Int)
    }

    private func tripsCount(_ person: PersonAtPicker) async throws -> Int {
        try #require(try await albums(person).first { $0["title"] as? String == "Trips" }?["count"] as? Int)
    }
}
