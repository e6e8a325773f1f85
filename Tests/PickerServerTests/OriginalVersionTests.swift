import Foundation
import PickerClient
import Testing
import TestSupport

/// An original's ETag is the version of the file on disk: replaced (and read by the index), it is another file.
@Suite("An original's validator follows the file")
struct OriginalVersionTests {
    @Test("a range asked with If-Range naming the tag of a replaced original gets the whole new file")
    func ifRangeAcrossReplacement() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let person = server.picker(try await server.client.createSession())
        let window = try await person.get("albums/smart%3Aall/assets?limit=500&media=photo").json
        let items = window["items"] as? [[String: Any]] ?? []
        let item = try #require(items.first { ($0["filename"] as? String)?.hasSuffix(".jpg") == true })
        let id = try #require(item["id"] as? String), filename = try #require(item["filename"] as? String)
        let first = try await person.get("assets/\(id)/original")
        let tag = try #require(first.header("ETag"))

        // Another photo takes the original's place (a rename over it, as an editor saves).
        let file = try #require(FileManager.default.enumerator(at: server.root, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.first { $0.lastPathComponent == filename })
        let replacement = try #require(Corpus.files(in: "A_camera_exif") { $0.pathExtension.lowercased() == "jpg" }
            .map { try Data(contentsOf: $0) }.first { $0 != first.body && $0.count > 200 })
        let staged = file.deletingLastPathComponent().appendingPathComponent(".replacement")
        try replacement.write(to: staged)
        try #require(rename(staged.path, file.path) == 0)
        // Until the index has read the new file, the original answers as missing (ConfinedOriginalTests).
        _ = try await server.library.indexing?.scan(progress: nil)

        let ranged = try await person.get("assets/\(id)/original", headers: ["Range": "bytes=0-99", "If-Range": tag])
        #expect(ranged.status == 200, "the old tag must not validate the new file")
        #expect(ranged.body == replacement, "got \(ranged.body.count) bytes, the new file has \(replacement.count)")
        let newTag = try #require(ranged.header("ETag"))
        #expect(newTag != tag)
        let current = try await person.get("assets/\(id)/original", headers: ["Range": "bytes=0-99", "If-Range": newTag])
        #expect(current.status == 206)
        #expect(current.body == replacement.prefix(100))
    }
}
