import AssetsKit
import Foundation
@testable import IndexedLibrary
import Testing

@Suite("Counts kept by triggers (schema v3) equal counting the rows")
struct CountTests {
    @Test("after inserts, favourites, hides, deletions, moves between directories and row removals", arguments: IndexEngine.allCases)
    func triggerCountsMatchRows(_ engine: IndexEngine) async throws {
        let tree = try TemporaryTree(engine: engine)
        defer { tree.remove() }
        let library = try await tree.openLibrary()
        try await library.insertSyntheticAssets(700, in: "one")
        try await library.insertSyntheticAssets(300, in: "two")
        for statement in [
            "UPDATE asset SET isFavorite = NOT isFavorite WHERE id % 11 = 0",
            "UPDATE asset SET isHidden = TRUE WHERE id % 13 = 0",
            "UPDATE asset SET deletedAt = 1 WHERE id % 17 = 0",
            "UPDATE asset SET directoryId = (SELECT id FROM directory WHERE relativePath = 'two'), mediaType = 1 - mediaType WHERE id % 19 = 0",
            "DELETE FROM asset WHERE id % 23 = 0",
            "UPDATE asset SET deletedAt = NULL WHERE id % 34 = 0",
        ] {
            try await library.executeSQL(statement)
        }
        var collections = [SmartAlbum.all, .favorites, .videos].map(\.collectionIdentifier)
        collections += try await library.collections().filter { $0.kind == .directory }.map(\.id)
        #expect(collections.count == 5)
        for collection in collections {
            for filter in MediaFilter.allCases {
                let maintained = try await library.assetCount(in: collection, filter: filter)
                // Paged from the asset table itself, not from the counts the trigger keeps.
                let counted = try await collect(library.assets(in: collection, options: FetchOptions(mediaFilter: filter))).count
                #expect(maintained == counted, "\(collection.rawValue) \(filter)")
                let isEmptyByDefinition = collection == SmartAlbum.videos.collectionIdentifier && filter == .photo
                #expect(counted > 0 || isEmptyByDefinition, "\(collection.rawValue) \(filter)")
            }
        }
        for directory in try await library.collections().filter({ $0.kind == .directory }) {
            #expect(try await directory.estimatedAssetCount == library.assetCount(in: directory.id, filter: .all))
        }
    }
}
