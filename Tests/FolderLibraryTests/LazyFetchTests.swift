import AssetsKit
import FolderLibrary
import Foundation
import Testing
import TestSupport

@Suite("A folder fetch without a limit makes assets only for the positions read")
struct LazyFetchTests {
    /// 24 folders of 25 photos (600 files, more than a call reads before it answers), each a
    /// hard link to one corpus photo, so that every file reads fast and the same.
    private func largeTree() throws -> (base: URL, root: URL, cacheFile: URL) {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("lazy-fetch-\(UUID().uuidString)", isDirectory: true)
        let root = base.appendingPathComponent("Library", isDirectory: true)
        let source = base.appendingPathComponent("source.jpg")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Corpus.file("A_camera_exif/jhead__canon-300d.jpg"), to: source)
        for day in 0..<24 {
            let folder = root.appendingPathComponent(String(format: "2026-01-%02d", day + 1), isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for photo in 0..<25 {
                try FileManager.default.linkItem(at: source, to: folder.appendingPathComponent(String(format: "IMG_%04d.jpg", photo)))
            }
        }
        return (base, root, base.appendingPathComponent("data/folder-cache"))
    }

    @Test("cold, the first window is read and made alone, later windows follow it; warm, the same",
          arguments: [DateOrder.newestFirst, .oldestFirst])
    func windowsOnly(_ order: DateOrder) async throws {
        let tree = try largeTree()
        defer { try? FileManager.default.removeItem(at: tree.base) }
        let library = FolderLibrary(root: tree.root, cacheFile: tree.cacheFile, metadataReading: nil, synchronousReadLimit: 256,
                                    now: AlbumTree.hourAhead)

        let cold = try await library.assets(in: FolderLibrary.cameraRollID, options: FetchOptions(sortOrder: order))
        #expect(cold.count == 600)
        let first = try await cold.assets(in: 0..<60)
        #expect(first.count == 60)
        #expect(library.handedOutAssetCount.load(ordering: .relaxed) == 60, "assets are made only for the window asked")
        let second = try await cold.assets(in: 60..<120)
        #expect(second.count == 60)
        #expect(Set(first.map(\.id)).isDisjoint(with: second.map(\.id)), "a later window follows the first in the fetch's order")
        #expect(library.handedOutAssetCount.load(ordering: .relaxed) == 120)

        await library.settled()
        let before = library.handedOutAssetCount.load(ordering: .relaxed)
        let warm = try await library.assets(in: FolderLibrary.cameraRollID, options: FetchOptions(sortOrder: order))
        #expect(warm.count == 600)
        let page = try await warm.assets(in: 0..<60)
        #expect(library.handedOutAssetCount.load(ordering: .relaxed) - before == 60)
        let limited = try await library.assets(in: FolderLibrary.cameraRollID, options: FetchOptions(sortOrder: order, limit: 60))
        #expect(try await limited.assets(in: 0..<60) == page, "a window of an unlimited fetch is the limited fetch's page")
        var all: [Asset] = []
        for try await asset in warm { all.append(asset) }
        #expect(all.count == 600 && Array(all.prefix(60)) == page)
        #expect(Set(all.map(\.id)).count == 600)
    }

    @Test("iterating a provisional fetch a position at a time passes over a file found unreadable and goes on to the end")
    func iterationPassesOverUnreadable() async throws {
        let tree = try AlbumTree()
        defer { tree.remove() }
        // Unread files of one folder follow one another by name: this one comes before its
        // folder's others, so a window holding only it is never the last.
        try FileManager.default.copyItem(at: Corpus.file("D_hostile/jhead__poc2.jpg"), to: tree.root.appendingPathComponent("Trip/broken.jpg"))
        let exact = try await FolderLibrary(root: tree.root).scan(FolderLibrary.cameraRollID, filter: .all).assets
        let library = FolderLibrary(root: tree.root, cacheFile: tree.cacheFile, metadataReading: nil, synchronousReadLimit: 0,
                                    now: AlbumTree.hourAhead)
        var result = try await library.assets(in: FolderLibrary.cameraRollID, options: FetchOptions(sortOrder: .oldestFirst))
        result.pageSize = 1
        #expect(result.count == exact.count + 1, "the broken photo is counted until it is read")
        var iterated: [Asset] = []
        for try await asset in result { iterated.append(asset) }
        #expect(Set(iterated.map(\.id)) == Set(exact.map(\.id)))
        #expect(iterated.count == exact.count)
    }
}
