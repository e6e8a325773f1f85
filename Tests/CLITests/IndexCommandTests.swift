import Foundation
import Testing
import TestSupport

@Suite("assets-picker index, and the indexed backend agreeing with the folder backend")
struct IndexCommandTests {
    @Test("index --json on a corpus copy: every file scanned, the folder backend's assets added, its skipped files failed with reasons; a rescan adds nothing")
    func indexSummary() async throws {
        let copy = try CorpusCopy()
        defer { copy.remove() }
        let folder = try await copy.run("assets", ["--backend", "folder"]).json()
        let folderCount = try folder.int("count")
        let skipped = try Set(folder.objects("skipped").map { try $0.string("path") })
        try #require(folderCount > 100 && !skipped.isEmpty, "the corpus has good and bad files")

        let first = try await CLI.run(["index", copy.path, "--json"])
        try #require(first.status == 0, "\(first)")
        let summary = try first.json()
        #expect(try summary.int("added") == folderCount)
        #expect(try summary.int("scanned") == folderCount + skipped.count)
        #expect(try summary.int("updated") == 0 && summary.int("removed") == 0 && summary.int("moved") == 0)
        let failed = try summary.objects("failed")
        #expect(try Set(failed.map { try $0.string("path") }) == skipped)
        #expect(try failed.allSatisfy { try !$0.string("reason").isEmpty })
        #expect(try summary.string("index") == copy.defaultIndex.path)
        #expect(FileManager.default.fileExists(atPath: copy.defaultIndex.path))

        // Move one file, delete another: the rescan follows the move and drops the deleted one.
        let fm = FileManager.default
        try fm.moveItem(at: copy.root.appendingPathComponent("A_camera_exif/goexif__sample1.jpg"),
                        to: copy.root.appendingPathComponent("B_orientation/moved.jpg"))
        let removedName = try #require(try fm.contentsOfDirectory(atPath: copy.root.appendingPathComponent("E_formats").path)
            .first { $0.hasSuffix(".mp4") })
        try fm.removeItem(at: copy.root.appendingPathComponent("E_formats/\(removedName)"))
        // --library, as every command takes it, names the same library and index.
        let second = try await CLI.run(["index", "--library", copy.path, "--json"])
        try #require(second.status == 0, "\(second)")
        #expect(try second.json().string("index") == copy.defaultIndex.path)
        let rescan = try second.json()
        #expect(try rescan.int("added") == 0 && rescan.int("updated") == 0, "\(rescan.raw)")
        #expect(try rescan.int("moved") == 1 && rescan.int("removed") == 1, "\(rescan.raw)")
        #expect(try rescan.int("scanned") == folderCount + skipped.count - 1)
    }

    @Test("index writes its summary as sentences without --json (no progress bar into a file), and refuses a missing folder")
    func textAndMissingFolder() async throws {
        let copy = try CorpusCopy()
        defer { copy.remove() }
        let text = try await CLI.run(["index", copy.path])
        #expect(text.status == 0, "\(text)")
        let lines = text.stdoutText.split(separator: "\n")
        #expect(lines.first?.hasPrefix("Indexed \(copy.path): ") == true && lines.first?.contains(" new") == true, "\(text)")
        #expect(lines.contains { $0.contains("(the previews of its ") && $0.contains(" newest photos are made); previews of the other new photos are made in the background") },
                "\(text)")
        let again = try await CLI.run(["index", copy.path])
        #expect(again.stdoutText.contains("nothing changed since the last index;"), "\(again)")
        #expect(!again.stdoutText.contains("background"), "nothing new, nothing to make: \(again)")
        #expect(!text.stdoutText.contains("\r"), "no progress bar into a file")

        let missing = try await CLI.run(["index", copy.root.appendingPathComponent("nothing-here").path, "--json"])
        #expect(missing.status != 0)
        #expect(missing.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: copy.root.appendingPathComponent("nothing-here").path), "nothing created")
    }

    @Test("assets --backend indexed lists what --backend folder lists: same UUIDs in the same order, for the camera roll's set and an album without equal dates", arguments: ["newest", "oldest"])
    func backendsAgree(sort: String) async throws {
        let copy = try CorpusCopy()
        defer { copy.remove() }
        let indexedAlbum = try await copy.albumID("A_camera_exif", backend: "indexed")
        let folderAlbum = try await copy.albumID("A_camera_exif", backend: "folder")
        #expect(indexedAlbum.hasPrefix("directory:"))

        let indexed = try await copy.run("assets", ["--backend", "indexed", "--album", indexedAlbum, "--sort", sort]).json().objects("assets")
        let folder = try await copy.run("assets", ["--backend", "folder", "--album", folderAlbum, "--sort", sort]).json().objects("assets")
        let dates = try folder.map { try $0.date("creationDate") }
        try #require(folder.count == 15 && Set(dates).count == dates.count, "15 assets, no two equal dates")
        #expect(try indexed.map { assetUUID(try $0.string("id")) } == folder.map { assetUUID(try $0.string("id")) })
        #expect(try indexed.allSatisfy { try $0.string("id").hasSuffix("/L0/001") })
        #expect(try indexed.map { try $0.int("byteSize") } == folder.map { try $0.int("byteSize") })
        #expect(try indexed.map { try $0.int("pixelWidth") } == folder.map { try $0.int("pixelWidth") })

        let indexedRoll = try await copy.run("assets", ["--backend", "indexed", "--sort", sort]).json().objects("assets")
        let folderRoll = try await copy.run("assets", ["--backend", "folder", "--sort", sort]).json().objects("assets")
        #expect(try Set(indexedRoll.map { assetUUID(try $0.string("id")) }) == Set(folderRoll.map { assetUUID(try $0.string("id")) }))
        #expect(indexedRoll.count == folderRoll.count)
    }

    @Test("info, image and export work on the indexed backend with either identifier form")
    func otherCommandsOnIndexed() async throws {
        let copy = try CorpusCopy()
        defer { copy.remove() }
        let album = try await copy.albumID("A_camera_exif", backend: "folder")
        let legacy = try #require(try await copy.run("assets", ["--backend", "folder", "--album", album, "--limit", "1"]).json()
            .objects("assets").first).string("id")
        let info = try await copy.run("info", ["--backend", "indexed", "--asset", legacy])
        try #require(info.status == 0, "\(info)")
        let local = try info.json().string("localIdentifier")
        #expect(assetUUID(local) == assetUUID(legacy))
        #expect(try info.json().string("originalPath").hasPrefix(copy.path))

        let out = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let image = try await copy.run("image", ["--backend", "indexed", "--asset", local, "--size", "64x64", "--out", out.appendingPathComponent("t.jpg").path])
        #expect(image.status == 0, "\(image)")
        let export = try await copy.run("export", ["--backend", "indexed", "--asset", local, "--original", "--out", out.appendingPathComponent("x").path])
        #expect(export.status == 0, "\(export)")
        let exported = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("x").path)
        #expect(exported.count == 1, "\(exported)")
    }
}
