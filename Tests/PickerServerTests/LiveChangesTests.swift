import Foundation
import IndexedLibrary
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
