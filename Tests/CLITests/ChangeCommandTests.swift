import Foundation
import Testing
import TestSupport

@Suite("Changing an indexed library from the command line")
struct ChangeCommandTests {
    /// Runs a command on the copy's indexed library and requires it to succeed.
    func run(_ copy: CorpusCopy, _ command: [String]) async throws -> JSONObject {
        let result = try await CLI.run(command + ["--json", "--library", copy.path, "--backend", "indexed"])
        try #require(result.status == 0, "\(result)")
        return try result.json()
    }

    func count(_ copy: CorpusCopy, _ title: String) async throws -> Int {
        let albums = try await run(copy, ["albums"]).objects("albums")
        return try #require(try albums.first { try $0.string("title") == title }).int("count")
    }

    @Test("a library folder made read-only with chmod a-w takes no change, not even from root")
    func readOnlyForRootToo() async throws {
        let copy = try CorpusCopy()
        defer {
            _ = try? Process.run(URL(fileURLWithPath: "/bin/chmod"), arguments: ["-R", "u+w", copy.path]).waitUntilExit()
            copy.remove()
        }
        let photo = try await run(copy, ["assets", "--limit", "1"]).objects("assets")[0].string("id")
        let chmod = try Process.run(URL(fileURLWithPath: "/bin/chmod"), arguments: ["-R", "a-w", copy.path])
        chmod.waitUntilExit()
        try #require(chmod.terminationStatus == 0)
        let before = try FileManager.default.subpathsOfDirectory(atPath: copy.path).sorted()
        for command in [["album", "create", "Mine"], ["import", Corpus.file("A_camera_exif/jhead__sony.jpg").path], ["favorite", "--asset", photo]] {
            let result = try await CLI.run(command + ["--library", copy.path, "--backend", "indexed"])
            #expect(result.status != 0, "\(command) as uid \(getuid()): \(result)")
            #expect(result.stderrText.contains("cannot be changed"), "\(command): \(result.stderrText)")
        }
        #expect(try FileManager.default.subpathsOfDirectory(atPath: copy.path).sorted() == before, "nothing written into the folder")
        #expect(try await count(copy, "Favorites") == 0)
    }

    @Test("import, album create/add, favorite, delete/restore, changes --since and drafts, end to end")
    func changeFlow() async throws {
        let copy = try CorpusCopy()
        defer { copy.remove() }
        let allBefore = try await count(copy, "All Photos")

        let imported = try await run(copy, ["import", Corpus.file("A_camera_exif/jhead__sony.jpg").path])
        let newID = try #require(imported.raw["insertedAssets"] as? [String]).first ?? ""
        #expect(newID.hasSuffix("/L0/001"), "a local identifier: \(newID)")
        let token = try imported.string("token")
        let info = try await run(copy, ["info", "--asset", newID])
        #expect(try info.string("originalPath").contains("/Imports/2004/01/jhead__sony.jpg"))
        #expect(try await count(copy, "All Photos") == allBefore + 1)

        let legacy = try await CLI.run(["assets", "--json", "--library", copy.path, "--backend", "folder",
                                        "--album", try await copy.albumID("A_camera_exif", backend: "folder"), "--limit", "1"])
        let legacyID = try #require(try legacy.json().objects("assets").first).string("id")
        #expect(legacyID.hasPrefix("assets-library://"))

        let album = try #require(try await run(copy, ["album", "create", "Trip"]).raw["insertedCollections"] as? [String]).first ?? ""
        _ = try await run(copy, ["album", "add", album, "--asset", newID, "--asset", legacyID])
        let members = try await run(copy, ["assets", "--album", album]).objects("assets")
        #expect(try Set(members.map { assetUUID(try $0.string("id")) }) == [assetUUID(newID), assetUUID(legacyID)])

        _ = try await run(copy, ["favorite", "--asset", legacyID])
        #expect(try await count(copy, "Favorites") == 1)
        _ = try await run(copy, ["delete", "--asset", newID])
        #expect(try await count(copy, "All Photos") == allBefore)
        #expect(try await count(copy, "Recently Deleted") == 1)
        _ = try await run(copy, ["restore", "--asset", newID])
        #expect(try await count(copy, "All Photos") == allBefore + 1)

        // A token from the future is an error that says what is taken.
        let future = try await CLI.run(["changes", "--library", copy.path, "--backend", "indexed", "--since", "99999999"])
        #expect(future.status != 0)
        #expect(future.stderrText.contains("change token 99999999 is later than this library's latest"), "\(future)")
        let changes = try await run(copy, ["changes", "--since", token])
        #expect((changes.raw["changedAssets"] as? [String] ?? []).contains { assetUUID($0) == assetUUID(legacyID) })
        #expect(try changes.objects("collections").contains { try $0.string("id") == album })

        _ = try await run(copy, ["draft", "save", "picks", "--asset", legacyID, "--asset", newID])
        let loaded = try await run(copy, ["draft", "load", "picks"])
        #expect(try loaded.objects("assets").map { assetUUID(try $0.string("id")) } == [assetUUID(legacyID), assetUUID(newID)])
        #expect(try loaded.objects("migrated").count == 1)
        _ = try await run(copy, ["delete", "--asset", newID])
        let pruned = try await run(copy, ["draft", "load", "picks"])
        #expect(try pruned.objects("assets").count == 1)
        #expect((pruned.raw["dropped"] as? [String] ?? []).map(assetUUID) == [assetUUID(newID)])
    }

    @Test("changes are refused on the folder backend with a clear error, and nothing is written")
    func folderRefuses() async throws {
        let copy = try CorpusCopy()
        defer { copy.remove() }
        let result = try await CLI.run(["album", "create", "Trip", "--library", copy.path, "--backend", "folder"])
        #expect(result.status != 0)
        #expect(result.stderrText.contains("cannot change the library"))
        #expect(result.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: copy.defaultIndex.path))
    }
}
