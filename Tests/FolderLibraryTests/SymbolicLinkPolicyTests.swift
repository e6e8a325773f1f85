import AssetsKit
@testable import FolderLibrary
import Foundation
import LibraryTree
import Testing
import TestSupport

/// A library never leaves its root: links inside it are followed, links out of it are passed over.
@Suite("Symbolic links are followed only inside the library")
struct SymbolicLinkPolicyTests {
    /// A library with one photo, links leading out of it (to `/`, a folder and a file elsewhere)
    /// and a link to its own folder; and, beside it, a folder holding a photo of its own.
    struct LinkedTree {
        let base: URL
        var root: URL { base.appendingPathComponent("library") }

        init() throws {
            base = FileManager.default.temporaryDirectory.appendingPathComponent("links-\(UUID().uuidString)")
            let fm = FileManager.default
            try fm.createDirectory(at: root.appendingPathComponent("Inside"), withIntermediateDirectories: true)
            try fm.createDirectory(at: base.appendingPathComponent("elsewhere"), withIntermediateDirectories: true)
            try fm.copyItem(at: Corpus.file("A_camera_exif/jhead__sony.jpg"), to: root.appendingPathComponent("Inside/inside.jpg"))
            try fm.copyItem(at: Corpus.file("A_camera_exif/goexif__sample1.jpg"), to: base.appendingPathComponent("elsewhere/outside.jpg"))
            try fm.createSymbolicLink(atPath: root.appendingPathComponent("everything").path, withDestinationPath: "/")
            try fm.createSymbolicLink(atPath: root.appendingPathComponent("neighbour").path, withDestinationPath: "../elsewhere")
            try fm.createSymbolicLink(atPath: root.appendingPathComponent("stolen.jpg").path,
                                      withDestinationPath: base.appendingPathComponent("elsewhere/outside.jpg").path)
            try fm.createSymbolicLink(atPath: root.appendingPathComponent("Inside/shortcut.jpg").path, withDestinationPath: "inside.jpg")
        }

        func remove() { try? FileManager.default.removeItem(at: base) }
    }

    @Test("links to /, to a folder and to a file outside are passed over with a reason; a link inside is followed")
    func folderLibrary() async throws {
        let tree = try LinkedTree()
        defer { tree.remove() }
        let scan = try await FolderLibrary(root: tree.root).scan(FolderLibrary.cameraRollID, filter: .all)
        #expect(Set(scan.assets.map(\.filename)) == ["inside.jpg", "shortcut.jpg"])
        let reasons = Dictionary(scan.skipped.map { ($0.path, $0.reason) }, uniquingKeysWith: { a, _ in a })
        for link in ["everything", "neighbour", "stolen.jpg"] {
            #expect(reasons[link]?.contains("leading out of the library") == true, "\(link): \(reasons[link] ?? "not reported")")
        }
    }

    @Test("a file reached through a link out of the library is no file of it")
    func lookupByPath() throws {
        let tree = try LinkedTree()
        defer { tree.remove() }
        #expect(FileEntry.current(at: "stolen.jpg", root: tree.root) == nil)
        #expect(FileEntry.current(at: "neighbour/outside.jpg", root: tree.root) == nil)
        #expect(FileEntry.current(at: "Inside/shortcut.jpg", root: tree.root) != nil)
    }

    @Test("a walk in a cancelled task stops with CancellationError")
    func cancelledWalk() async throws {
        let tree = try LinkedTree()
        defer { tree.remove() }
        let root = tree.root
        let walk = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try FolderEnumerator(root: root).enumerate()
        }
        await #expect(throws: CancellationError.self) { try await walk.value }
    }
}
