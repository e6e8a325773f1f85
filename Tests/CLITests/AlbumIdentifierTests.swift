import Foundation
import Testing
import TestSupport

/// An album id answers on either backend, as asset ids do: what `albums` printed before `index`
/// (`camera-roll`, `assets-library://group/?id=…`) still answers after it, and the indexed
/// library's `smart:all` and `directory:…` answer with `--backend folder`; the albums only an
/// index keeps say so there.
@Suite("album ids from either backend resolve in the other")
struct AlbumIdentifierTests {
    /// A writable library of two corpus folders and a video, in a temporary folder.
    struct SmallLibrary {
        let root: URL

        init() throws {
            root = try makeScratchFolder().appendingPathComponent("library", isDirectory: true)
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            for group in ["A_camera_exif", "B_orientation"] {
                try FileManager.default.copyItem(at: Corpus.root.appendingPathComponent(group), to: root.appendingPathComponent(group))
            }
            let videos = root.appendingPathComponent("Videos", isDirectory: true)
            try FileManager.default.createDirectory(at: videos, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: Corpus.file("E_formats/puremagic__test.mp4"), to: videos.appendingPathComponent("clip.mp4"))
        }

        func run(_ command: [String], backend: String? = nil) async throws -> CLIResult {
            try await CLI.run(command + ["--json", "--library", root.path] + (backend.map { ["--backend", $0] } ?? []))
        }

        /// `albums`: id → kind.
        func albums(backend: String) async throws -> [(id: String, kind: String)] {
            let result = try await run(["albums"], backend: backend)
            guard result.status == 0 else { throw FixtureError.commandFailed(result) }
            return try result.json().objects("albums").map { (try $0.string("id"), try $0.string("kind")) }
        }

        /// The UUIDs of the assets `assets --album id` lists, or the failed run.
        func members(of id: String, backend: String? = nil) async throws -> Result<Set<String>, FixtureError> {
            let result = try await run(["assets", "--album", id], backend: backend)
            guard result.status == 0 else { return .failure(.commandFailed(result)) }
            return .success(Set(try result.json().objects("assets").map { assetUUID(try $0.string("id")) }))
        }

        func remove() { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
    }

    /// The other backend's form of a tree album: `camera-roll` ↔ `smart:all`,
    /// `assets-library://group/?id=UUID` ↔ `directory:UUID`; `nil` for an album only an index keeps.
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

    @Test("every album id albums printed before index lists the same assets after it, and its indexed twin does too")
    func folderIDsAfterIndexing() async throws {
        let library = try SmallLibrary()
        defer { library.remove() }
        let before = try await library.albums(backend: "folder")
        #expect(Set(before.map(\.kind)) == ["cameraRoll", "directory"], "\(before)")
        var expected: [String: Set<String>] = [:]
        for album in before { expected[album.id] = try await library.members(of: album.id, backend: "folder").get() }

        let index = try await library.run(["index"])
        #expect(index.status == 0, "\(index)")
        for album in before {
            let twin = try #require(Self.otherForm(of: album.id))
            let members = try await library.members(of: album.id).get()
            #expect(!members.isEmpty && members == expected[album.id], "\(album.id) after index")
            #expect(try await library.members(of: twin).get() == members, "\(twin) lists what \(album.id) lists")
        }
        // Other commands that take an album id take the old form too.
        let folder = try #require(before.first { $0.kind == "directory" })
        let out = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let export = try await library.run(["export", "--album", folder.id, "--original", "--out", out.path])
        #expect(export.status == 0, "\(export)")
        #expect(try export.json().objects("exported").count == expected[folder.id]?.count)
    }

    @Test("every album of an indexed library answers with --backend folder: All Photos and folders list the same assets, the rest say they need the index")
    func indexedIDsOnTheFolderBackend() async throws {
        let library = try SmallLibrary()
        defer { library.remove() }
        let index = try await library.run(["index"])
        #expect(index.status == 0, "\(index)")
        let photo = try #require(try await library.members(of: "smart:all").get().sorted().first)
        let trip = try await library.run(["album", "create", "Trip"])
        let tripID = try #require(try trip.json().raw["insertedCollections"] as? [String]).first ?? ""
        #expect(try await library.run(["album", "create", "--folder", "Trips"]).status == 0)
        #expect(try await library.run(["album", "add", tripID, "--asset", photo]).status == 0)
        #expect(try await library.run(["favorite", "--asset", photo]).status == 0)

        let albums = try await library.albums(backend: "indexed")
        #expect(Set(albums.map(\.kind)) == ["cameraRoll", "smartAlbum", "album", "folder", "directory"], "every kind: \(albums)")
        for album in albums {
            let indexed = try await library.members(of: album.id, backend: "indexed").get()
            let onFolder = try await library.members(of: album.id, backend: "folder")
            if let twin = Self.otherForm(of: album.id) {
                #expect(try onFolder.get() == indexed, "\(album.id) on the folder backend")
                #expect(try await library.members(of: twin, backend: "folder").get() == indexed, "\(twin)")
            } else {
                guard case .failure(.commandFailed(let result)) = onFolder else {
                    Issue.record("\(album.id) (\(album.kind)) answered on the folder backend")
                    continue
                }
                #expect(result.stderrLines.count == 1, "one line: \(result)")
                #expect(result.stderrText.contains("\(album.id) is an album only an indexed library keeps"), "\(result)")
                #expect(result.stderrText.contains("assets-picker index"), "says what to do: \(result)")
            }
        }
    }

    @Test("an id that is no album's, in either form, is still one line naming it")
    func unknownAlbum() async throws {
        let library = try SmallLibrary()
        defer { library.remove() }
        for (id, backend) in [("directory:\(UUID().uuidString)", "folder"), ("assets-library://group/?id=\(UUID().uuidString)", "indexed"),
                              ("nothing", "indexed"), ("nothing", "folder")] {
            let result = try await library.run(["assets", "--album", id], backend: backend)
            #expect(result.status != 0)
            #expect(result.stderrLines == ["Error: no album with identifier \(id) in this library; `assets-picker albums` lists them"], "\(result)")
        }
    }
}
