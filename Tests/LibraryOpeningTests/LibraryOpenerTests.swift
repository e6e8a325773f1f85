import AssetsKit
import Foundation
import LibraryOpening
import Testing
import TestSupport

@Suite("LibraryOpener: which backend opens a folder, and where its index lives")
struct LibraryOpenerTests {
    /// A temporary folder holding an empty `library` folder and a `data` folder for indexes.
    private struct Place {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("opener-\(UUID().uuidString)", isDirectory: true)
        var root: URL { base.appendingPathComponent("library", isDirectory: true) }
        var data: URL { base.appendingPathComponent("data", isDirectory: true) }

        init() throws {
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        }

        func opener(canCreateIndex: (@Sendable (URL) -> Bool)? = nil) -> LibraryOpener {
            LibraryOpener(dataFolder: data, canCreateIndex: canCreateIndex ?? IndexLocation.canCreate(at:))
        }

        /// Every entry under `url`, relative, sorted.
        func listing(_ url: URL) -> [String] {
            ((FileManager.default.enumerator(atPath: url.path)?.allObjects as? [String]) ?? []).sorted()
        }

        func remove() { try? FileManager.default.removeItem(at: base) }
    }

    @Test("auto makes an index only when the opening may and the place is writable; indexed and folder are taken as asked")
    func resolveFollowsIntentAndWritability() throws {
        let place = try Place()
        defer { place.remove() }
        let writable = place.opener(canCreateIndex: { _ in true })
        let readOnly = place.opener(canCreateIndex: { _ in false })
        #expect(writable.resolve(root: place.root, backend: .auto) == .folder)
        #expect(writable.resolve(root: place.root, backend: .auto, mayCreateIndex: true) == .indexed)
        #expect(readOnly.resolve(root: place.root, backend: .auto, mayCreateIndex: true) == .folder)
        #expect(readOnly.resolve(root: place.root, backend: .indexed) == .indexed)
        #expect(writable.resolve(root: place.root, backend: .folder, mayCreateIndex: true) == .folder)
    }

    @Test("a reading open of a library without an index walks the folder, makes no index and writes only its folder cache, in the data folder")
    func readingOpenWritesNothing() async throws {
        let place = try Place()
        defer { place.remove() }
        try FileManager.default.copyItem(at: Corpus.file("A_camera_exif/goexif__sample1.jpg"), to: place.root.appendingPathComponent("sample1.jpg"))
        let library = try await place.opener().open(root: place.root, backend: .auto)
        #expect(library.backendName == "folder")
        #expect(try await library.assetCount(in: library.cameraRoll().id, filter: .all) == 1)
        #expect(place.listing(place.root) == ["sample1.jpg"])
        let cache = IndexLocation.folderCacheURL(forRoot: place.root, dataFolder: place.data)
        #expect(place.listing(cache.deletingLastPathComponent()) == [cache.lastPathComponent])
        #expect(!IndexLocation.exists(at: place.opener().defaultIndexURL(forRoot: place.root)))
    }

    @Test("an opening that may make an index makes it in the data folder, never in the library, and scans it first")
    func newIndexLivesInTheDataFolder() async throws {
        let place = try Place()
        defer { place.remove() }
        try FileManager.default.copyItem(at: Corpus.file("A_camera_exif/goexif__sample1.jpg"), to: place.root.appendingPathComponent("sample1.jpg"))
        let opener = place.opener()
        let library = try await opener.open(root: place.root, backend: .auto, mayCreateIndex: true)
        #expect(library.backendName == "indexed")
        #expect(try await library.assetCount(in: library.cameraRoll().id, filter: .all) == 1)
        #expect(place.listing(place.root) == ["sample1.jpg"])
        let index = opener.defaultIndexURL(forRoot: place.root)
        #expect(index.path.hasPrefix(place.data.appendingPathComponent("libraries/library-").path))
        #expect(IndexLocation.exists(at: index))
        // Once it exists, a reading open uses it.
        let reopened = try await place.opener(canCreateIndex: { _ in false }).open(root: place.root, backend: .auto)
        #expect(reopened.backendName == "indexed")
        let elsewhere = try await place.opener(canCreateIndex: { _ in false })
            .open(root: place.root, backend: .auto, indexURL: place.base.appendingPathComponent("other/library.sqlite"))
        #expect(elsewhere.backendName == "folder")
    }

    @Test("one index per library folder: same name elsewhere gets another, a symbolic link to it the same")
    func indexKeyedByRealPath() throws {
        let place = try Place()
        defer { place.remove() }
        let other = place.base.appendingPathComponent("elsewhere/library", isDirectory: true)
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        let link = place.base.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: place.root)
        let opener = place.opener()
        let index = opener.defaultIndexURL(forRoot: place.root)
        #expect(opener.defaultIndexURL(forRoot: other) != index)
        #expect(opener.defaultIndexURL(forRoot: link) == index)
        #expect(opener.defaultIndexURL(forRoot: place.root.appendingPathComponent("../library")) == index)
        let odd = place.base.appendingPathComponent("Fotos 2024 — été", isDirectory: true)
        try FileManager.default.createDirectory(at: odd, withIntermediateDirectories: true)
        let folder = opener.defaultIndexURL(forRoot: odd).deletingLastPathComponent().lastPathComponent
        #expect(folder.hasPrefix("Fotos_2024____t_-") && folder.count == "Fotos_2024____t_-".count + 16)
    }

    @Test("an index whose first scan never finished (a killed process) is scanned on the next open")
    func interruptedIndexIsScanned() async throws {
        let place = try Place()
        defer { place.remove() }
        try FileManager.default.copyItem(at: Corpus.file("A_camera_exif/goexif__sample1.jpg"), to: place.root.appendingPathComponent("sample1.jpg"))
        let opener = place.opener()
        let unscanned = try await opener.indexedLibrary(root: place.root)
        #expect(try await !unscanned.hasCompletedScan())
        #expect(unscanned.indexing != nil)
        #expect(try await unscanned.assetCount(in: unscanned.cameraRoll().id, filter: .all) == 0)
        let library = try await opener.open(root: place.root, backend: .auto)
        #expect(try await library.assetCount(in: library.cameraRoll().id, filter: .all) == 1)
    }

    @Test("a folder that cannot be read is refused, and nothing is created")
    func missingRoot() async throws {
        let place = try Place()
        defer { place.remove() }
        let root = place.base.appendingPathComponent("missing")
        await #expect(throws: LibraryError.self) { try await place.opener().open(root: root, backend: .indexed) }
        #expect(!FileManager.default.fileExists(atPath: root.path))
        #expect(!FileManager.default.fileExists(atPath: place.data.path))
    }

    @Test("IndexLocation.canCreate: a writable folder or a path to be made in one, not under a regular file nor in a read-only folder")
    func canCreate() throws {
        let place = try Place()
        let root = place.root
        defer {
            chmod(root.appendingPathComponent("locked").path, 0o755)
            place.remove()
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
