import Foundation
import Testing
import TestSupport

@Suite("--backend auto: the indexed library where an index can live, the folder library on read-only media")
struct BackendChoiceTests {
    @Test("auto on a writable copy makes the index, scans it and answers from it")
    func autoOnWritableRoot() async throws {
        let copy = try CorpusCopy()
        defer { copy.remove() }
        let result = try await copy.run("albums")
        try #require(result.status == 0, "\(result)")
        let document = try result.json()
        #expect(try document.string("backend") == "indexed")
        #expect(try document.objects("albums").first?.int("count") ?? 0 > 100, "scanned before answering")
        #expect(FileManager.default.fileExists(atPath: copy.defaultIndex.path))
    }

    @Test("auto with --index under a regular file (it cannot be created) uses the folder library and writes nothing; --backend indexed there fails")
    func autoWithUncreatableIndex() async throws {
        let copy = try CorpusCopy()
        defer { copy.remove() }
        let blocker = copy.root.deletingLastPathComponent().appendingPathComponent("a-file")
        try Data("x".utf8).write(to: blocker)
        let index = blocker.appendingPathComponent("index/library.sqlite").path
        let auto = try await copy.run("albums", ["--index", index])
        try #require(auto.status == 0, "\(auto)")
        #expect(try auto.json().string("backend") == "folder")
        #expect(!FileManager.default.fileExists(atPath: copy.defaultIndex.deletingLastPathComponent().path), "no index made under the root")

        let forced = try await copy.run("albums", ["--index", index, "--backend", "indexed"])
        #expect(forced.status != 0, "\(forced)")
        #expect(forced.stdout.isEmpty)
    }

    @Test("auto on a root whose permissions deny writing uses the folder library and writes nothing (also as root)")
    func autoOnReadOnlyPermissions() async throws {
        let copy = try CorpusCopy()
        defer {
            chmod(copy.path, 0o755)
            copy.remove()
        }
        try #require(chmod(copy.path, 0o555) == 0)
        let result = try await copy.run("albums")
        try #require(result.status == 0, "\(result)")
        #expect(try result.json().string("backend") == "folder")
        #expect(!FileManager.default.fileExists(atPath: copy.defaultIndex.deletingLastPathComponent().path))
    }

    @Test("auto on a read-only bind mount (unshare -m) uses the folder library", .enabled(if: ReadOnlyMount.isAvailable, "needs unshare -m and mount (root)"))
    func autoOnReadOnlyMount() async throws {
        let copy = try CorpusCopy()
        defer { copy.remove() }
        let result = try await copy.run("albums", launcher: ReadOnlyMount.launcher(for: copy.path))
        try #require(result.status == 0, "\(result)")
        #expect(try result.json().string("backend") == "folder")
        #expect(!FileManager.default.fileExists(atPath: copy.defaultIndex.deletingLastPathComponent().path))

        let forced = try await copy.run("albums", ["--backend", "indexed"], launcher: ReadOnlyMount.launcher(for: copy.path))
        #expect(forced.status != 0, "an index cannot be made on read-only media: \(forced)")
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
