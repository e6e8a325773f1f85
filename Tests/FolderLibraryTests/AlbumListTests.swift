import AssetsKit
import FolderLibrary
import Foundation
import Testing

@Suite("The folder backend's album list: one walk, every folder, counts as the albums list them")
struct AlbumListTests {
    @Test("each folder is an album of the files directly in it, empty ones too; hidden folders are not albums",
          arguments: [MediaFilter.all, .photo, .video])
    func countsMatchTheListing(_ filter: MediaFilter) async throws {
        let tree = try AlbumTree()
        defer { tree.remove() }
        let library = FolderLibrary(root: tree.root)
        let summaries = try await library.albumSummaries(filter: filter)
        // Ordered by path; the root is an album because it holds a photo; no hidden folder.
        #expect(summaries.map(\.collection.title) == ["All Photos", "Library", "Empty", "Trip", "Day 2", "Nothing here", "Videos", "Videos / 2026"])
        for summary in summaries {
            let listed = try await library.assets(in: summary.collection.id, options: FetchOptions(mediaFilter: filter))
            #expect(summary.count == listed.count, "\(summary.collection.title)")
            #expect(summary.keyAsset == (try await library.keyAsset(of: summary.collection.id, filter: filter)), "\(summary.collection.title)")
        }
        let roll = try #require(summaries.first)
        #expect(roll.count == [MediaFilter.all: 6, .photo: 4, .video: 2][filter])
    }

    @Test("the one-pass album list equals the default loop over collections, counts and key assets")
    func onePassEqualsTheLoop() async throws {
        let tree = try AlbumTree()
        defer { tree.remove() }
        let library = FolderLibrary(root: tree.root)
        for filter in [MediaFilter.all, .photo, .video] {
            var loop: [AlbumSummary] = []
            for collection in try await library.collections() {
                let count = try await library.assetCount(in: collection.id, filter: filter)
                let key = count == 0 ? nil : try await library.keyAsset(of: collection.id, filter: filter)
                loop.append(AlbumSummary(collection: collection, count: count, keyAsset: key))
            }
            #expect(try await library.albumSummaries(filter: filter) == loop)
        }
    }
}
