import AssetsKit
import FolderLibrary
import Foundation
import Testing
import TestSupport

@Suite("A folder tree with bad entries is enumerated without failing as a whole")
struct FolderEnumerationTests {
    /// Builds a tree with good photos and every kind of bad entry.
    static func makeHostileTree() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("folder-enum-\(UUID().uuidString)")
        let fm = FileManager.default
        try fm.createDirectory(at: root.appendingPathComponent("Trip/Day 1"), withIntermediateDirectories: true)
        try fm.copyItem(at: Corpus.file("A_camera_exif/jhead__sony.jpg"), to: root.appendingPathComponent("good.jpg"))
        try fm.copyItem(at: Corpus.file("A_camera_exif/goexif__sample1.jpg"), to: root.appendingPathComponent("Trip/Day 1/beijing.jpg"))
        // Unreadable for anyone but root.
        let locked = root.appendingPathComponent("Trip/locked.jpg")
        try fm.copyItem(at: Corpus.file("A_camera_exif/jhead__hp.jpg"), to: locked)
        chmod(locked.path, 0)
        // A symbolic-link loop, a dangling link (a file deleted after it was listed), a FIFO named like a photo.
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("Trip/Day 1/loop").path, withDestinationPath: "../..")
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("gone.jpg").path, withDestinationPath: "deleted.jpg")
        mkfifo(root.appendingPathComponent("pipe.jpg").path, 0o644)
        // A name that is not UTF-8.
        var name = Array(root.path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".jpg".utf8) + [0]
        let fd = name.withUnsafeMutableBufferPointer { open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o644) }
        close(fd)
        // A damaged photo and a non-media file.
        try fm.copyItem(at: Corpus.file("D_hostile/jhead__poc2.jpg"), to: root.appendingPathComponent("broken.jpg"))
        try Data("notes".utf8).write(to: root.appendingPathComponent("notes.txt"))
        return root
    }

    @Test("good files are listed; each bad entry is passed over with a reason")
    func hostileTree() async throws {
        let root = try Self.makeHostileTree()
        defer { try? FileManager.default.removeItem(at: root) }
        let library = FolderLibrary(root: root)
        let scan = try await library.scan(FolderLibrary.cameraRollID, filter: .all)
        let names = Set(scan.assets.map(\.filename))
        #expect(names.isSuperset(of: ["good.jpg", "beijing.jpg"]))
        #expect(!names.contains("pipe.jpg") && !names.contains("gone.jpg") && !names.contains("broken.jpg"))
        let reasons = Dictionary(scan.skipped.map { ($0.path, $0.reason) }, uniquingKeysWith: { a, _ in a })
        #expect(reasons["gone.jpg"] != nil)
        #expect(reasons["pipe.jpg"] == "not a regular file")
        #expect(reasons["Trip/Day 1/loop"]?.contains("loop") == true)
        #expect(reasons.keys.contains { $0.hasPrefix("caf") && $0.hasSuffix(".jpg") })
        #expect(reasons["broken.jpg"]?.contains("broken.jpg") == true)
        if geteuid() != 0 {
            #expect(reasons["Trip/locked.jpg"] != nil)
        } else {
            #expect(names.contains("locked.jpg"), "root reads a mode-000 file")
        }
        let albums = try await library.collections()
        #expect(albums.first?.kind == .cameraRoll)
        #expect(albums.map(\.title).contains("Day 1"))
    }

    @Test("a library root that does not exist is denied, and listing it is a clear error")
    func missingRoot() async throws {
        let library = FolderLibrary(root: URL(fileURLWithPath: "/nonexistent/photos"))
        #expect(await library.authorizationStatus() == .notDetermined)
        #expect(await library.requestAuthorization() == .denied)
        await #expect(throws: LibraryError.self) { try await library.collections() }
    }
}
