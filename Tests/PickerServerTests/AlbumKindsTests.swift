import AssetsKit
import Foundation
import IndexedLibrary
import PickerClient
import Testing

/// The album list says what each collection is (`smartKind`), whatever its identifier, on both
/// backends; the trash is left out by what it is, never by its name.
@Suite struct AlbumKindsTests {
    enum Backend: String, CaseIterable, Sendable {
        case folder, indexed

        func server() async throws -> TestServer {
            switch self {
            case .folder: try await TestServer.folder()
            case .indexed: try await TestServer.indexed()
            }
        }
    }

    @Test("the album list says which smart album each one is: All Photos on both backends", arguments: Backend.allCases)
    func smartKinds(_ backend: Backend) async throws {
        let server = try await backend.server()
        defer { Task { await server.stop() } }
        let person = server.picker(try await server.client.createSession())
        let albums = try #require(try await person.get("albums").json["albums"] as? [[String: Any]])
        let cameraRoll = try #require(albums.first)
        #expect(cameraRoll["kind"] as? String == "cameraRoll")
        #expect(cameraRoll["smartKind"] as? String == "allPhotos", "\(cameraRoll)")
        for album in albums.dropFirst() {
            let isSmart = album["kind"] as? String == "smartAlbum"
            #expect(isSmart == (album["smartKind"] != nil), "only smart albums say which they are: \(album)")
        }
        if backend == .indexed {
            let kinds = Set(albums.compactMap { $0["smartKind"] as? String })
            #expect(kinds.isSuperset(of: ["allPhotos", "videos", "recentlyAdded"]), "\(kinds)")
        }
    }

    @Test("the trash, holding a deleted photo, is not listed and its window answers as an unknown album's")
    func trashLeftOut() async throws {
        let server = try await TestServer.indexed()
        defer { Task { await server.stop() } }
        let person = server.picker(try await server.client.createSession())
        let trashID = SmartAlbum.recentlyDeleted.collectionIdentifier
        let trashPath = "albums/\(trashID.rawValue.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)/assets"
        // Asked first, before any album list: the trash is known from the library's collections.
        let unlisted = try await person.get(trashPath)
        let unknown = try await person.get("albums/no%3Asuch/assets")
        #expect(unknown.status == 404)
        #expect(unlisted.status == 404)
        #expect(unlisted.body == unknown.body)

        let deleted = try #require(try await person.cameraRollIDs(media: "photo").first)
        let identifier = AssetIdentifier.local(LocalIdentifier(uuid: try #require(UUID(uuidString: deleted))))
        _ = try await #require(server.library.changing).performChanges([.delete([identifier])])
        #expect(try await server.library.assetCount(in: trashID, filter: .all) == 1)

        let albums = try #require(try await person.get("albums").json["albums"] as? [[String: Any]])
        #expect(!albums.contains { $0["smartKind"] as? String == "recentlyDeleted" || $0["id"] as? String == trashID.rawValue })
        // After the album list: the trash is known from it.
        let listed = try await person.get(trashPath)
        #expect(listed.status == 404)
        #expect(listed.body == unknown.body)
    }
}
