import AssetsKit
import FolderLibrary
import Foundation
import Testing

/// A call on an unchanged tree reuses the last walk after a `stat` of each folder: these check
/// that every change made between two calls is still seen by the second.
@Suite("Calls in a row share one walk only while no folder changed")
struct UnchangedWalkTests {
    /// A library over `tree` whose folders all last changed an hour ago, so that the change a
    /// test makes gives its folder a new stamp whatever the file system's clock tick.
    private func library(_ tree: AlbumTree, counting reader: CountingReader) throws -> FolderLibrary {
        let anHourAgo = Date(timeIntervalSinceNow: -3_600)
        for folder in ["", "Trip", "Trip/Day 2", "Trip/Nothing here", "Empty", "Videos", "Videos/2026"] {
            try FileManager.default.setAttributes([.modificationDate: anHourAgo], ofItemAtPath: tree.root.appendingPathComponent(folder).path)
        }
        return FolderLibrary(root: tree.root, cacheFile: tree.cacheFile, metadataReading: reader, now: AlbumTree.hourAhead)
    }

    private func newestNames(_ library: FolderLibrary, in collection: CollectionIdentifier) async throws -> Set<String> {
        let page = try await library.assets(in: collection, options: FetchOptions(sortOrder: .newestFirst, limit: 20))
        return Set(try await page.assets(in: 0..<page.count).map(\.filename))
    }

    private func album(_ title: String, in summaries: [AlbumSummary]) -> AlbumSummary? {
        summaries.first { $0.collection.title == title }
    }

    @Test("a file added after the album list is in the next page and counts; a file removed is gone from them")
    func addedAndRemovedFilesAreSeen() async throws {
        let tree = try AlbumTree()
        defer { tree.remove() }
        let library = try library(tree, counting: CountingReader())
        let before = try await library.albumSummaries(filter: .all)
        let empty = try #require(album("Empty", in: before))
        #expect(empty.count == 0)

        let added = tree.root.appendingPathComponent("Empty/added.jpg")
        try FileManager.default.copyItem(at: tree.root.appendingPathComponent("top.jpg"), to: added)
        #expect(try await newestNames(library, in: empty.collection.id) == ["added.jpg"])
        #expect(try await newestNames(library, in: FolderLibrary.cameraRollID).contains("added.jpg"))
        #expect(try await library.assetCount(in: FolderLibrary.cameraRollID, filter: .all) == before[0].count + 1)

        try FileManager.default.removeItem(at: tree.root.appendingPathComponent("Trip/two.jpg"))
        #expect(try await !newestNames(library, in: FolderLibrary.cameraRollID).contains("two.jpg"))
        let after = try await library.albumSummaries(filter: .all)
        #expect(album("Trip", in: after)?.count == album("Trip", in: before).map { $0.count - 1 })
        #expect(after == (try await FolderLibrary(root: tree.root).albumSummaries(filter: .all)))
    }

    @Test("a folder made after the album list is an album of the next list, with its files")
    func addedFolderIsSeen() async throws {
        let tree = try AlbumTree()
        defer { tree.remove() }
        let library = try library(tree, counting: CountingReader())
        let before = try await library.albumSummaries(filter: .all)
        let folder = tree.root.appendingPathComponent("Trip/Day 3")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        try FileManager.default.copyItem(at: tree.root.appendingPathComponent("top.jpg"), to: folder.appendingPathComponent("four.jpg"))

        let after = try await library.albumSummaries(filter: .all)
        #expect(after.count == before.count + 1)
        #expect(album("Day 3", in: after)?.count == 1)
        #expect(after[0].count == before[0].count + 1)
    }

    @Test("a file replaced in place after the page is read again on the next call, and only it")
    func replacedFileIsReadAgain() async throws {
        let tree = try AlbumTree()
        defer { tree.remove() }
        let reader = CountingReader()
        let library = try library(tree, counting: reader)
        _ = try await library.albumSummaries(filter: .all)
        let readFirst = reader.readFiles.count
        // Renamed over the old one, as editors save: the folder's entry changes, so does its stamp.
        try Data(contentsOf: tree.root.appendingPathComponent("Trip/one.jpg"))
            .write(to: tree.root.appendingPathComponent("Trip/Day 2/three.jpg"), options: .atomic)

        _ = try await library.albumSummaries(filter: .all)
        #expect(Array(reader.readFiles.dropFirst(readFirst)) == ["three.jpg"])
        _ = try await library.albumSummaries(filter: .all)
        #expect(reader.readFiles.count == readFirst + 1, "an unchanged tree is not read again")
    }

    @Test("a library opened on a kept cache walks the tree as a fresh one does, with or without a symbolic-link loop",
          arguments: [false, true])
    func keptCacheWalksAsAFreshLibrary(withLoop: Bool) async throws {
        let tree = try AlbumTree()
        defer { tree.remove() }
        if withLoop {
            try FileManager.default.createSymbolicLink(atPath: tree.root.appendingPathComponent("Trip/Day 2/back").path, withDestinationPath: "..")
        }
        _ = try await library(tree, counting: CountingReader()).albumSummaries(filter: .all)
        let reader = CountingReader()
        let kept = FolderLibrary(root: tree.root, cacheFile: tree.cacheFile, metadataReading: reader, now: AlbumTree.hourAhead)
        let fresh = FolderLibrary(root: tree.root)
        #expect(try await kept.collections() == (try await fresh.collections()))
        #expect(try await kept.albumSummaries(filter: .all) == (try await fresh.albumSummaries(filter: .all)))
        let skipped = try await kept.skippedFiles(in: FolderLibrary.cameraRollID, filter: .all).map(\.path)
        #expect(skipped == (try await fresh.skippedFiles(in: FolderLibrary.cameraRollID, filter: .all)).map(\.path))
        #expect(skipped.contains("Trip/Day 2/back") == withLoop)
        #expect(reader.readFiles.isEmpty)
    }
}
