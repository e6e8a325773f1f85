import Foundation
import Testing
import TestSupport

@Suite("The index rule: reading commands never write into a library; an index lives in the data folder, made by commands that say so")
struct BackendChoiceTests {
    /// Runs every reading command (albums, assets, info, image, export, changes) on `copy` with
    /// `--backend auto`; each must succeed, and the backends they answered with are returned.
    static func runReadingCommands(on copy: CorpusCopy, output: URL) async throws -> Set<String> {
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        var backends: Set<String> = []
        let albums = try await copy.run("albums")
        try #require(albums.status == 0, "\(albums)")
        backends.insert(try albums.json().string("backend"))
        let album = try #require(try albums.json().objects("albums").first { try $0.string("title") == "A_camera_exif" })
        let assets = try await copy.run("assets", ["--album", try album.string("id"), "--limit", "3"])
        try #require(assets.status == 0, "\(assets)")
        let asset = try #require(try assets.json().objects("assets").first).string("id")
        for (command, extra) in [
            ("info", ["--asset", asset]),
            ("image", ["--asset", asset, "--size", "64x64", "--out", output.appendingPathComponent("one.jpg").path]),
            ("export", ["--album", try album.string("id"), "--size", "64x64", "--out", output.appendingPathComponent("export").path]),
        ] {
            let result = try await copy.run(command, extra)
            #expect(result.status == 0, "\(command): \(result)")
        }
        // The folder library keeps no change history: `changes` refuses it, in one line, writing nothing.
        let changes = try await copy.run("changes", ["--since", "0"])
        if backends == ["folder"] {
            #expect(changes.status != 0 && !changes.stderrText.isEmpty, "\(changes)")
        } else {
            #expect(changes.status == 0, "\(changes)")
        }
        return backends
    }

    @Test("albums, assets, info, image, export and changes on a writable library without an index: the folder backend, no index made, not a byte changed")
    func readingCommandsWriteNothing() async throws {
        let copy = try CorpusCopy()
        defer { copy.remove() }
        let output = copy.root.deletingLastPathComponent().appendingPathComponent("out", isDirectory: true)
        let before = try TreeSnapshot.of(copy.root)
        #expect(try await Self.runReadingCommands(on: copy, output: output) == ["folder"])
        #expect(try TreeSnapshot.of(copy.root) == before, "the library folder changed")
        #expect(!FileManager.default.fileExists(atPath: copy.defaultIndex.path), "a reading command made an index")
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("one.jpg").path))
    }

    @Test("index makes the index in the data folder, not in the library; reading commands then use it, still writing nothing into the library")
    func indexThenRead() async throws {
        let copy = try CorpusCopy()
        defer { copy.remove() }
        let before = try TreeSnapshot.of(copy.root)
        let index = try await CLI.run(["index", copy.path, "--json"])
        try #require(index.status == 0, "\(index)")
        #expect(try index.json().string("index") == copy.defaultIndex.path)
        #expect(FileManager.default.fileExists(atPath: copy.defaultIndex.path))
        #expect(try TreeSnapshot.of(copy.root) == before, "indexing wrote into the library")
        let output = copy.root.deletingLastPathComponent().appendingPathComponent("out", isDirectory: true)
        #expect(try await Self.runReadingCommands(on: copy, output: output) == ["indexed"])
        #expect(try TreeSnapshot.of(copy.root) == before, "a reading command wrote into the library")
    }

    @Test("a change command (album create) with auto makes the index in the data folder and answers from it")
    func changeCommandMakesTheIndex() async throws {
        let copy = try CorpusCopy()
        defer { copy.remove() }
        let before = try TreeSnapshot.of(copy.root)
        let created = try await CLI.run(["album", "create", "Trip", "--json", "--library", copy.path])
        try #require(created.status == 0, "\(created)")
        #expect(FileManager.default.fileExists(atPath: copy.defaultIndex.path))
        let albums = try await copy.run("albums")
        #expect(try albums.json().string("backend") == "indexed")
        #expect(try albums.json().objects("albums").contains { try $0.string("title") == "Trip" })
        #expect(try TreeSnapshot.of(copy.root) == before)
    }

    @Test("--index under a regular file (it cannot be made): auto reads the folder and writes nothing; --backend indexed there fails")
    func autoWithUncreatableIndex() async throws {
        let copy = try CorpusCopy()
        defer { copy.remove() }
        let blocker = copy.root.deletingLastPathComponent().appendingPathComponent("a-file")
        try Data("x".utf8).write(to: blocker)
        let index = blocker.appendingPathComponent("index/library.sqlite").path
        let auto = try await CLI.run(["album", "create", "Trip", "--library", copy.path, "--index", index])
        #expect(auto.status != 0 && auto.stderrText.contains("cannot change the library"), "\(auto)")
        #expect(!FileManager.default.fileExists(atPath: copy.defaultIndex.deletingLastPathComponent().path), "no index made elsewhere")

        let forced = try await copy.run("albums", ["--index", index, "--backend", "indexed"])
        #expect(forced.status != 0, "\(forced)")
        #expect(forced.stdout.isEmpty)
    }

    @Test("a read-only bind mount (unshare -m): reading commands use the folder; index works (the index is elsewhere) and leaves the library as it was",
          .enabled(if: ReadOnlyMount.isAvailable, "needs unshare -m and mount (root)"))
    func readOnlyMount() async throws {
        let copy = try CorpusCopy()
        defer { copy.remove() }
        let before = try TreeSnapshot.of(copy.root)
        let result = try await copy.run("albums", launcher: ReadOnlyMount.launcher(for: copy.path))
        try #require(result.status == 0, "\(result)")
        #expect(try result.json().string("backend") == "folder")

        let index = try await CLI.run(["index", copy.path, "--json"], launcher: ReadOnlyMount.launcher(for: copy.path))
        #expect(index.status == 0, "an index of read-only media lives in the data folder: \(index)")
        let indexed = try await copy.run("albums", launcher: ReadOnlyMount.launcher(for: copy.path))
        #expect(try indexed.json().string("backend") == "indexed")
        #expect(try TreeSnapshot.of(copy.root) == before)
    }
}

/// Runs a command in its own mount namespace with a folder bind-mounted read-only onto itself.
enum ReadOnlyMount {
    /// The launcher: `unshare -m sh -c 'mount --bind F F && mount -o remount,ro,bind F F && exec "$@"' sh`.
    static func launcher(for folder: String) -> [String] {
        ["/usr/bin/unshare", "-m", "/bin/sh", "-c",
         "mount --bind \"$0\" \"$0\" && mount -o remount,ro,bind \"$0\" \"$0\" && exec \"$@\"", folder]
    }

    /// Whether this machine lets the tests make such a mount.
    static let isAvailable: Bool = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ro-probe-\(UUID().uuidString)")
        guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil else { return false }
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["-m", "/bin/sh", "-c", "mount --bind \"$0\" \"$0\" && mount -o remount,ro,bind \"$0\" \"$0\" && ! touch \"$0/x\" 2>/dev/null", folder.path]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()
}
