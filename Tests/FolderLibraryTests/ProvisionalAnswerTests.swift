import AssetsKit
import FolderLibrary
import Foundation
import Testing
import TestSupport

@Suite("A folder library too large to read at once answers provisionally, then converges with a change")
struct ProvisionalAnswerTests {
    /// The album tree with a damaged photo that only reading its header tells from a good one.
    private func treeWithBrokenPhoto() throws -> AlbumTree {
        let tree = try AlbumTree()
        try FileManager.default.copyItem(at: Corpus.file("D_hostile/jhead__poc2.jpg"), to: tree.root.appendingPathComponent("Trip/broken.jpg"))
        return tree
    }

    /// A library that reads no file before it answers: every unread file is left to the background.
    private func provisionalLibrary(_ tree: AlbumTree) -> FolderLibrary {
        FolderLibrary(root: tree.root, cacheFile: tree.cacheFile, metadataReading: nil, synchronousReadLimit: 0, now: AlbumTree.hourAhead)
    }

    /// The first change of `changes`, or `nil` when none came before the hang guard (300 s, where
    /// reading a few headers takes milliseconds: with the whole suite running at once on two cores
    /// they took over 60 s).
    private func firstChange(_ changes: AsyncStream<LibraryChange>) async -> LibraryChange? {
        await withTaskGroup(of: LibraryChange?.self) { group in
            group.addTask {
                for await change in changes { return change }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(300)) // hang guard only
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    @Test("the first album list counts unread files by name; after the background reads, a change arrives and the list is the exact one")
    func albumListConverges() async throws {
        let tree = try treeWithBrokenPhoto()
        defer { tree.remove() }
        let exact = try await FolderLibrary(root: tree.root).albumSummaries(filter: .all)
        let library = provisionalLibrary(tree)
        let changes = library.changes()

        let provisional = try await library.albumSummaries(filter: .all)
        let counts = Dictionary(uniqueKeysWithValues: provisional.map { ($0.collection.title, $0.count) })
        #expect(counts["All Photos"] == 7 && counts["Trip"] == 4, "the broken photo is counted by its name: \(counts)")
        #expect(provisional.map(\.collection) == exact.map(\.collection))

        let change = try #require(await firstChange(changes))
        let broken = try #require(change.removedAssets.first)
        #expect(change.removedAssets.count == 1)
        #expect(change.collections[FolderLibrary.cameraRollID]?.removed == [broken])
        await library.settled()
        #expect(try await library.albumSummaries(filter: .all) == exact)
        let trip = try #require(exact.first { $0.collection.title == "Trip" })
        #expect(change.collections[trip.collection.id]?.removed == [broken])
    }

    @Test("a provisional first page hands out read assets; once settled, every fetch gives the fully read library's order",
          arguments: [DateOrder.newestFirst, .oldestFirst])
    func fetchConverges(_ order: DateOrder) async throws {
        let tree = try treeWithBrokenPhoto()
        defer { tree.remove() }
        let exactLibrary = FolderLibrary(root: tree.root)
        let exact = try await exactLibrary.assets(in: FolderLibrary.cameraRollID, options: FetchOptions(sortOrder: order)).assets(in: 0..<100)
        let library = provisionalLibrary(tree)

        let page = try await library.assets(in: FolderLibrary.cameraRollID, options: FetchOptions(sortOrder: order, limit: 3)).assets(in: 0..<3)
        #expect((1...3).contains(page.count))
        for asset in page {
            #expect(exact.contains(asset), "a provisional page holds only assets read for it: \(asset.filename)")
        }
        await library.settled()
        let settled = try await library.assets(in: FolderLibrary.cameraRollID, options: FetchOptions(sortOrder: order, limit: 3)).assets(in: 0..<3)
        #expect(settled == Array(exact.prefix(3)))
        #expect(try await library.assets(in: FolderLibrary.cameraRollID, options: FetchOptions(sortOrder: order)).assets(in: 0..<100) == exact)
        #expect(try await library.assetCount(in: FolderLibrary.cameraRollID, filter: .all) == exact.count)
    }

    @Test("what the background read is kept: a new library on the same cache answers exactly without reading")
    func backgroundReadsAreCached() async throws {
        let tree = try treeWithBrokenPhoto()
        defer { tree.remove() }
        let library = provisionalLibrary(tree)
        _ = try await library.albumSummaries(filter: .all)
        await library.settled()
        let reader = CountingReader()
        let again = FolderLibrary(root: tree.root, cacheFile: tree.cacheFile, metadataReading: reader, synchronousReadLimit: 0,
                                  now: AlbumTree.hourAhead)
        #expect(try await again.albumSummaries(filter: .all) == FolderLibrary(root: tree.root).albumSummaries(filter: .all))
        #expect(reader.readFiles.isEmpty, "\(reader.readFiles)")
    }
}
