import AssetsKit
import Foundation
import Picker
import Testing
import TestSupport

@Suite("LibraryOpener: which backend opens a folder")
struct LibraryOpenerTests {
    /// An empty library folder in a temporary place.
    private static func makeRoot() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("opener-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        return root
    }

    @Test("auto follows the writability check; indexed and folder are taken as asked")
    func resolveFollowsWritability() throws {
        let root = try Self.makeRoot()
        defer { try? FileManager.default.removeItem(at: root) }
        let writable = LibraryOpener(canCreateIndex: { _ in true })
        let readOnly = LibraryOpener(canCreateIndex: { _ in false })
        #expect(writable.resolve(root: root, backend: .auto) == .indexed)
        #expect(readOnly.resolve(root: root, backend: .auto) == .folder)
        #expect(readOnly.resolve(root: root, backend: .indexed) == .indexed)
        #expect(writable.resolve(root: root, backend: .folder) == .folder)
    }

    @Test("auto opens an existing index even where no new one could be made")
    func existingIndexWins() async throws {
        let root = try Self.makeRoot()
        defer { try? FileManager.default.removeItem(at: root) }
        let made = try await LibraryOpener().open(root: root, backend: .indexed)
        #expect(made.backendName == "indexed")
        let reopened = try await LibraryOpener(canCreateIndex: { _ in false }).open(root: root, backend: .auto)
        #expect(reopened.backendName == "indexed")
        let elsewhere = try await LibraryOpener(canCreateIndex: { _ in false })
            .open(root: root, backend: .auto, indexURL: root.appendingPathComponent("other/library.sqlite"))
        #expect(elsewhere.backendName == "folder")
    }

    @Test("the index is new: the first open scans the folder before answering")
    func newIndexIsScanned() async throws {
        let root = try Self.makeRoot()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.copyItem(at: Corpus.file("A_camera_exif/goexif__sample1.jpg"), to: root.appendingPathComponent("sample1.jpg"))
        let library = try await LibraryOpener().open(root: root, backend: .auto)
        #expect(library.backendName == "indexed")
        #expect(try await library.assetCount(in: library.cameraRoll().id, filter: .all) == 1)
    }

    @Test("an index whose first scan never finished (a killed process) is scanned on the next open")
    func interruptedIndexIsScanned() async throws {
        let root = try Self.makeRoot()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.copyItem(at: Corpus.file("A_camera_exif/goexif__sample1.jpg"), to: root.appendingPathComponent("sample1.jpg"))
        let opener = LibraryOpener()
        let unscanned = try await opener.indexedLibrary(root: root)
        #expect(try await !unscanned.hasCompletedScan())
        #expect(try await unscanned.assetCount(in: unscanned.cameraRoll().id, filter: .all) == 0)
        let library = try await opener.open(root: root, backend: .auto)
        #expect(try await library.assetCount(in: library.cameraRoll().id, filter: .all) == 1)
    }

    @Test("a folder that cannot be read is refused, and nothing is created")
    func missingRoot() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("opener-missing-\(UUID().uuidString)")
        await #expect(throws: LibraryError.self) { try await LibraryOpener().open(root: root, backend: .indexed) }
        #expect(!FileManager.default.fileExists(atPath: root.path))
    }

    @Test("IndexLocation.canCreate: a writable folder or a path to be made in one, not under a regular file nor in a read-only folder")
    func canCreate() throws {
        let root = try Self.makeRoot()
        defer {
            chmod(root.appendingPathComponent("locked").path, 0o755)
            try? FileManager.default.removeItem(at: root)
        }
        #expect(IndexLocation.canCreate(at: root.appendingPathComponent("library.sqlite")))
        #expect(IndexLocation.canCreate(at: root.appendingPathComponent("a/b/library.sqlite")))
        let file = root.appendingPathComponent("file")
        try Data("x".utf8).write(to: file)
        #expect(!IndexLocation.canCreate(at: file.appendingPathComponent("x/library.sqlite")))
        let locked = root.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
        try #require(chmod(locked.path, 0o555) == 0)
        #expect(!IndexLocation.canCreate(at: locked.appendingPathComponent("library.sqlite")))
        #expect(!IndexLocation.canCreate(at: locked.appendingPathComponent("deeper/library.sqlite")))
    }
}
