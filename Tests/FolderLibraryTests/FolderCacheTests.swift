import AssetsKit
import FolderLibrary
import Foundation
import Testing

@Suite("The folder library's cache: kept outside the library, read again only where the tree changed")
struct FolderCacheTests {
    private func library(_ tree: AlbumTree, counting reader: CountingReader) -> FolderLibrary {
        FolderLibrary(root: tree.root, cacheFile: tree.cacheFile, metadataReading: reader, now: AlbumTree.hourAhead)
    }

    @Test("a second library on the same cache reads no file of the unchanged folders and lists the same albums")
    func secondInstanceReadsNothing() async throws {
        let tree = try AlbumTree()
        defer { tree.remove() }
        let firstReader = CountingReader()
        let first = try await library(tree, counting: firstReader).albumSummaries(filter: .all)
        #expect(firstReader.readFiles.count == 6)
        let secondReader = CountingReader()
        let second = library(tree, counting: secondReader)
        #expect(try await second.albumSummaries(filter: .all) == first)
        let newest = try await second.assets(in: FolderLibrary.cameraRollID, options: FetchOptions(sortOrder: .newestFirst, limit: 3))
        #expect(newest.count == 3)
        #expect(secondReader.readFiles.isEmpty, "\(secondReader.readFiles)")
    }

    @Test("an added, a removed and a replaced file are seen, and only the added and replaced ones are read")
    func changesAreSeen() async throws {
        let tree = try AlbumTree()
        defer { tree.remove() }
        _ = try await library(tree, counting: CountingReader()).albumSummaries(filter: .all)
        let trip = tree.root.appendingPathComponent("Trip")
        try FileManager.default.copyItem(at: trip.appendingPathComponent("one.jpg"), to: tree.root.appendingPathComponent("Empty/added.jpg"))
        try FileManager.default.removeItem(at: trip.appendingPathComponent("two.jpg"))
        // Replaced as editors and cameras save: a new file renamed over the old one.
        try Data(contentsOf: tree.root.appendingPathComponent("top.jpg")).write(to: trip.appendingPathComponent("Day 2/three.jpg"), options: .atomic)

        let reader = CountingReader()
        let after = try await library(tree, counting: reader).albumSummaries(filter: .all)
        #expect(Set(reader.readFiles) == ["added.jpg", "three.jpg"])
        let counts = Dictionary(uniqueKeysWithValues: after.map { ($0.collection.title, $0.count) })
        #expect(counts["Empty"] == 1 && counts["Trip"] == 2 && counts["Day 2"] == 1 && counts["All Photos"] == 6, "\(counts)")
        let fresh = try await FolderLibrary(root: tree.root).albumSummaries(filter: .all)
        #expect(after == fresh)
    }

    @Test("a corrupt, truncated or foreign cache file is ignored and rebuilt, never a failure",
          arguments: ["corrupt", "truncated", "foreign"])
    func badCacheFile(_ kind: String) async throws {
        let tree = try AlbumTree()
        defer { tree.remove() }
        let expected = try await library(tree, counting: CountingReader()).albumSummaries(filter: .all)
        var bytes = try Data(contentsOf: tree.cacheFile)
        switch kind {
        case "corrupt": bytes[bytes.count / 2] ^= 0xFF
        case "truncated": bytes = bytes.prefix(bytes.count / 3)
        default: bytes = Data("not a cache at all".utf8)
        }
        try bytes.write(to: tree.cacheFile)

        let reader = CountingReader()
        #expect(try await library(tree, counting: reader).albumSummaries(filter: .all) == expected)
        #expect(reader.readFiles.count == 6, "the bad cache was not used")
        let again = CountingReader()
        _ = try await library(tree, counting: again).albumSummaries(filter: .all)
        #expect(again.readFiles.isEmpty, "the cache was rebuilt")
    }

    @Test("a cache made for another library folder is not used for this one")
    func otherLibrary() async throws {
        let tree = try AlbumTree()
        let other = try AlbumTree()
        defer { tree.remove(); other.remove() }
        _ = try await library(other, counting: CountingReader()).albumSummaries(filter: .all)
        try FileManager.default.createDirectory(at: tree.cacheFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: other.cacheFile, to: tree.cacheFile)
        let reader = CountingReader()
        _ = try await library(tree, counting: reader).albumSummaries(filter: .all)
        #expect(reader.readFiles.count == 6)
    }

    @Test("listing, counting, fetching and looking up write nothing inside the library")
    func nothingWrittenInTheLibrary() async throws {
        let tree = try AlbumTree()
        defer { tree.remove() }
        let before = try tree.snapshot()
        let library = library(tree, counting: CountingReader())
        let albums = try await library.albumSummaries(filter: .all)
        for album in albums {
            let assets = try await library.assets(in: album.collection.id, options: FetchOptions())
            for try await asset in assets { _ = try await library.assets(withIdentifiers: [asset.id]) }
        }
        _ = try await library.scan(FolderLibrary.cameraRollID, filter: .all)
        #expect(try tree.snapshot() == before)
        #expect(FileManager.default.fileExists(atPath: tree.cacheFile.path))
    }

    @Test("two libraries saving one cache at once leave a whole file that a third reads")
    func concurrentWriters() async throws {
        let tree = try AlbumTree()
        defer { tree.remove() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { _ = try await library(tree, counting: CountingReader()).albumSummaries(filter: .all) }
            }
            try await group.waitForAll()
        }
        let reader = CountingReader()
        _ = try await library(tree, counting: reader).albumSummaries(filter: .all)
        #expect(reader.readFiles.isEmpty)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: tree.cacheFile.deletingLastPathComponent().path)
        #expect(leftovers == [tree.cacheFile.lastPathComponent])
    }
}
