import AssetsKit
import Foundation
@testable import IndexedLibrary
import Testing

@Suite("Album counts kept by triggers (schema v7) equal counting the members")
struct AlbumCountTests {
    @Test("after members added and removed, hides, deletions, media type changes, row removals and a deleted album",
          arguments: IndexEngine.allCases)
    func albumCountsMatchMembers(_ engine: IndexEngine) async throws {
        let tree = try TemporaryTree(engine: engine)
        defer { tree.remove() }
        let library = try await tree.openLibrary()
        try await library.insertSyntheticAssets(600, in: "one")
        let assets = try await collect(library.assets(in: SmartAlbum.all.collectionIdentifier, options: FetchOptions(sortOrder: .oldestFirst)))
        let made = try await library.performChanges([.createAlbum(title: "First half"), .createAlbum(title: "Every third"),
                                                     .createAlbum(title: "Gone")]).insertedCollections
        try await library.performChanges([
            .addAssets(assets.prefix(300).map(\.id), toAlbum: made[0]),
            .addAssets(assets.enumerated().filter { $0.offset % 3 == 0 }.map(\.element.id), toAlbum: made[1]),
            .addAssets(assets.suffix(50).map(\.id), toAlbum: made[2]),
        ])
        try await library.performChanges([.removeAssets(assets[10..<40].map(\.id), fromAlbum: made[0]),
                                          .setHidden(assets[50..<60].map(\.id), true), .delete(assets[60..<75].map(\.id)),
                                          .deleteCollection(made[2])])
        for statement in [
            "UPDATE asset SET mediaType = 1 - mediaType WHERE id % 19 = 0",
            "UPDATE asset SET isHidden = TRUE WHERE id % 13 = 0",
            "DELETE FROM asset WHERE id % 23 = 0",
            "UPDATE asset SET deletedAt = NULL WHERE id % 34 = 0",
        ] {
            try await library.executeSQL(statement)
        }
        let albums = try await library.collections().filter { $0.kind == .album }
        #expect(albums.map(\.title) == ["First half", "Every third"])
        for album in albums {
            // Paged from the members themselves, not from the counts the triggers keep.
            let counted = try await collect(library.assets(in: album.id, options: FetchOptions())).count
            #expect(album.estimatedAssetCount == counted, "\(album.title)")
            #expect(counted > 0)
        }
        for filter in MediaFilter.allCases {
            for summary in try await library.albumSummaries(filter: filter) where summary.collection.kind == .album {
                let counted = try await collect(library.assets(in: summary.collection.id, options: FetchOptions(mediaFilter: filter))).count
                #expect(summary.count == counted, "\(summary.collection.title) \(filter)")
            }
        }
        #expect(try await library.integer("SELECT COUNT(*) FROM album_count WHERE count <= 0") == 0)
        #expect(try await library.integer("SELECT COUNT(DISTINCT albumId) FROM album_count") == 2)
    }
}
