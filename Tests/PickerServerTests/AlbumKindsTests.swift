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

    /// The other backend's form of every album a backend lists with it: `camera-roll` ↔
    /// `smart:all`, `assets-library://group/?id=UUID` ↔ `directory:UUID`.
    static func otherForm(of id: String) -> String? {
        let folderGroup = "assets-library://group/?id=", indexedDirectory = "directory:"
        switch id {
        case "camera-roll": return "smart:all"
        case "smart:all": return "camera-roll"
        case _ where id.hasPrefix(folderGroup): return indexedDirectory + id.dropFirst(folderGroup.count)
        case _ where id.hasPrefix(indexedDirectory): return folderGroup + id.dropFirst(indexedDirectory.count)
        default: return nil
        }
    }

    @Test("a window asked for by the other backend's album id lists what the listed id lists: All Photos and every folder",
          arguments: Backend.allCases)
    func otherBackendsAlbumIDs(_ backend: Backend) async throws {
        let server = try await backend.server()
        defer { Task { await server.stop() } }
        let person = server.picker(try await server.client.createSession())
        func window(_ id: String) async throws -> (status: Int, ids: [String]) {
            let answer = try await person.get("albums/\(id.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)/assets?limit=500")
            return (answer.status, (answer.json["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })
        }
        let albums = try #require(try await person.get("albums").json["albums"] as? [[String: Any]])
        var translated = 0
        for id in albums.compactMap({ $0["id"] as? String }) {
            guard let other = Self.otherForm(of: id) else { continue }
            let listed = try await window(id), asked = try await window(other)
            #expect(listed.status == 200, "\(id)")
            #expect(asked.status == 200, "\(other) for \(id)")
            #expect(asked.ids == listed.ids, "\(other) lists what \(id) lists")
            if !listed.ids.isEmpty { translated += 1 }
        }
        #expect(translated >= 3, "All Photos and at least two folders with photos: \(albums)")
        if backend == .folder {
            // An indexed library's own albums have no folder-library form: unknown here, as any unknown album.
            for id in ["smart:favorites", "smart:recently-deleted", "album:\(UUID().uuidString)"] {
                #expect(try await window(id).status == 404, "\(id)")
            }
        }
    }
}
