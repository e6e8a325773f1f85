import Foundation
import LibraryOpening
import PickerClient
import Testing
import TestSupport

/// Originals are opened confined to the library and checked against the version it knows, on
/// every route that reads one (issue 26): a picked file swapped after the listing — for a link
/// out of the library, a directory or another version — answers as a missing one, never with
/// the bytes of a file outside the library.
@Suite("Originals are read confined to the library, of the version it knows")
struct ConfinedOriginalTests {
    /// A server whose library also holds `links/linked.jpg` and `links/linked.mp4`, links that
    /// lead inside it, and a folder beside the library with files the server must never hand out.
    struct Fixture {
        let server: TestServer
        let outsidePhoto: URL
        let outsideVideo: URL

        init(_ backend: LibraryBackend) async throws {
            // A photo the library does not hold (it has the corpus' first ten), so a render of it would succeed.
            let secretPhoto = try #require(Corpus.files(in: "A_camera_exif") { $0.pathExtension.lowercased() == "jpg" }
                .sorted { $0.path < $1.path }.last)
            server = try await TestServer.over(backend) { root in
                let outside = root.deletingLastPathComponent().appendingPathComponent("outside")
                try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
                try FileManager.default.copyItem(at: secretPhoto, to: outside.appendingPathComponent("secret.jpg"))
                try Data(String(repeating: "a secret outside the library\n", count: 100).utf8).write(to: outside.appendingPathComponent("secret.txt"))
                let links = root.appendingPathComponent("links")
                try FileManager.default.createDirectory(at: links, withIntermediateDirectories: true)
                let camera = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("DCIM/100CAMERA").path)
                let photo = try #require(camera.filter { $0.lowercased().hasSuffix(".jpg") }.sorted().first)
                try FileManager.default.createSymbolicLink(atPath: links.appendingPathComponent("linked.jpg").path,
                                                           withDestinationPath: "../DCIM/100CAMERA/\(photo)")
                try FileManager.default.createSymbolicLink(atPath: links.appendingPathComponent("linked.mp4").path,
                                                           withDestinationPath: "../DCIM/100CAMERA/clip.mp4")
            }
            let outside = server.root.deletingLastPathComponent().appendingPathComponent("outside")
            outsidePhoto = outside.appendingPathComponent("secret.jpg")
            outsideVideo = outside.appendingPathComponent("secret.txt")
        }

        /// The library file of `swap`'s photo (a link for a link's swap) and of its video.
        func files(for swap: OriginalSwap?) throws -> (photo: URL, video: URL) {
            if swap?.swapsALink == true {
                return (server.root.appendingPathComponent("links/linked.jpg"), server.root.appendingPathComponent("links/linked.mp4"))
            }
            let trips = try FileManager.default.contentsOfDirectory(atPath: server.root.appendingPathComponent("Trips").path).sorted()
            return (server.root.appendingPathComponent("Trips/\(try #require(trips.first))"),
                    server.root.appendingPathComponent("DCIM/100CAMERA/clip.mp4"))
        }

        /// The ids of the assets of `files` (photo, then video), and two sessions in which the
        /// person picked them: one still picking (the person's routes answer only then), one
        /// finished with Done, with the client's listing of its picks.
        func pick(_ files: (photo: URL, video: URL)) async throws
            -> (photo: String, video: String, picking: PickingSession, done: PickingSession, items: [PickedMediaItem]) {
            let picking = try await server.client.createSession(), done = try await server.client.createSession()
            let person = server.picker(picking)
            let albums = try await person.get("albums").json["albums"] as? [[String: Any]] ?? []
            let cameraRoll = try #require(albums.first?["id"] as? String).addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let items = try await person.get("albums/\(cameraRoll)/assets?limit=500").json["items"] as? [[String: Any]] ?? []
            // The library's file names are unique: the corpus' photos, clip.mp4 and the links' own names.
            func id(of file: URL) throws -> String {
                try #require(items.first { $0["filename"] as? String == file.lastPathComponent }?["id"] as? String)
            }
            let photo = try id(of: files.photo), video = try id(of: files.video)
            try await person.pick([photo, video], thenDone: false)
            let finishing = server.picker(done)
            _ = try await finishing.get("albums/\(cameraRoll)/assets?limit=500")
            try await finishing.pick([photo, video])
            return (photo, video, picking, done, try await server.client.mediaItems(in: done.id))
        }
    }

    static let backends: [LibraryBackend] = [.indexed, .folder]

    @Test("a picked original swapped after the listing answers as an unknown asset on the person's routes and the client's",
          arguments: backends, OriginalSwap.allCases)
    func swapped(backend: LibraryBackend, swap: OriginalSwap) async throws {
        let fixture = try await Fixture(backend)
        let server = fixture.server
        defer { Task { await server.stop() } }
        let files = try fixture.files(for: swap)
        let (photo, video, picking, done, items) = try await fixture.pick(files)
        #expect(items.count == 2)
        let person = server.picker(picking)
        let photoBytes = try Data(contentsOf: files.photo)
        let newPhoto = try Data(contentsOf: try #require(Corpus.files(in: "A_camera_exif") { $0.pathExtension.lowercased() == "jpg" }
            .first { (try? Data(contentsOf: $0)) != photoBytes }))
        let newVideo = try Data(contentsOf: files.video) + Data(count: 1000)
        try swap.apply(to: files.photo, outside: fixture.outsidePhoto, other: newPhoto)
        try swap.apply(to: files.video, outside: fixture.outsideVideo, other: newVideo)
        let secrets = [try Data(contentsOf: fixture.outsidePhoto), try Data(contentsOf: fixture.outsideVideo)]

        // The answers are asked for before anything else makes the library look again: a
        // folder library's walk, or its lookup of a pick, is its rescan.
        var personAnswers: [(String, HTTPAnswer)] = []
        for path in ["assets/\(photo)/original", "assets/\(photo)/image?w=256&h=256&mode=fill", "assets/\(video)/original",
                     "assets/\(video)/image?w=256&h=256&mode=fill"] {
            personAnswers.append((path, try await person.get(path)))
        }
        let unknownToPerson = try await person.get("assets/\(UUID().uuidString)/original")
        #expect(unknownToPerson.status == 404)
        for (path, answer) in personAnswers {
            #expect(answer.status == 404, "\(path): \(answer.status)")
            #expect(answer.body == unknownToPerson.body, "\(path): \(answer.errorMessage)")
            #expect(!secrets.contains { answer.body.range(of: $0.prefix(64)) != nil })
        }

        let client = [items[0].baseURLPath + "=d", items[0].baseURLPath + "=w256-h256", items[1].baseURLPath + "=dv",
                      items[1].baseURLPath + "=w256-h256"]
        if backend == .folder && swap == .fileByOtherFile {
            // The client's request looks its pick up in the folder as it is now, which finds
            // the other file: handed over, read confined, as after an index's rescan.
            for path in client { #expect(try await server.request("GET", path).status == 200, "\(path)") }
            #expect(try await server.request("GET", client[2]).body == newVideo)
            return
        }
        let unknownToClient = try await server.request("GET", try await server.mediaPath(session: done.id, item: UUID().uuidString) + "=d")
        #expect(unknownToClient.status == 404)
        for path in client {
            let answer = try await server.request("GET", path)
            #expect(answer.status == 404, "\(path): \(answer.status)")
            #expect(answer.body == unknownToClient.body, "\(path): \(answer.errorMessage)")
            #expect(!secrets.contains { answer.body.range(of: $0.prefix(64)) != nil })
        }
    }

    @Test("an index's rescan sees a swap: a link out or a directory drops the pick, another file is handed over as it is")
    func rescanSeesTheSwap() async throws {
        for swap in OriginalSwap.allCases {
            let fixture = try await Fixture(.indexed)
            let server = fixture.server
            defer { Task { await server.stop() } }
            let files = try fixture.files(for: swap)
            let (_, _, _, done, _) = try await fixture.pick(files)
            let newVideo = try Data(contentsOf: files.video) + Data(count: 1000)
            try swap.apply(to: files.video, outside: fixture.outsideVideo, other: newVideo)
            _ = try await server.library.indexing?.scan(progress: nil)
            let items = try await server.client.mediaItems(in: done.id)
            if swap == .fileByOtherFile {
                #expect(items.count == 2)
                #expect(try await server.request("GET", items[1].baseURLPath + "=dv").body == newVideo)
            } else {
                #expect(items.count == 1, "\(swap)")
            }
        }
    }

    @Test("a link that stays inside the library is followed on every route", arguments: backends)
    func linkInsideIsFollowed(backend: LibraryBackend) async throws {
        let fixture = try await Fixture(backend)
        let server = fixture.server
        defer { Task { await server.stop() } }
        let files = try fixture.files(for: .linkByLinkOut)
        let (photo, video, picking, _, items) = try await fixture.pick(files)
        let person = server.picker(picking)
        let photoBytes = try Data(contentsOf: files.photo), videoBytes = try Data(contentsOf: files.video)

        #expect(try await person.get("assets/\(photo)/original").body == photoBytes)
        #expect(try await person.get("assets/\(video)/original").body == videoBytes)
        #expect(try await person.get("assets/\(photo)/image?w=256&h=256&mode=fill").status == 200)
        #expect(try await server.request("GET", items[1].baseURLPath + "=dv").body == videoBytes)
        let download = try await server.request("GET", items[0].baseURLPath + "=d")
        #expect(download.status == 200)
        #expect(download.header("Content-Type") == "image/jpeg")
        #expect(try await server.request("GET", items[0].baseURLPath + "=w256-h256").status == 200)
        #expect(try await server.request("GET", items[1].baseURLPath + "=w256-h256").status == 200)
    }
}
