import AssetsKit
import Foundation
@testable import IndexedLibrary
import Testing

@Suite("A jump deep into a list (timeline buckets, schema v8) lands where walking there does")
struct TimelineJumpTests {
    @Test("pages at positions past the jump threshold equal the walked list's, both orders, every filter and smart album",
          arguments: IndexEngine.allCases)
    func jumpsMatchWalking(_ engine: IndexEngine) async throws {
        let tree = try TemporaryTree(engine: engine)
        defer { tree.remove() }
        let library = try await tree.openLibrary()
        let total = TimelineBuckets.jumpThreshold * 2 + 6_000
        try await library.insertSyntheticAssets(total, in: "one")
        // Spread over ~9 years (about a hundred buckets), some before 1970, ties on the same second,
        // half of them videos and two in three favourites (so every list reaches past the threshold),
        // and hides and deletions moving assets between the counts.
        for statement in [
            "UPDATE asset SET creationDate = 1500000000 + (id / 2) * 25000",
            "UPDATE asset SET creationDate = -creationDate / 2 WHERE id % 5 = 0",
            "UPDATE asset SET isFavorite = TRUE WHERE id % 3 <> 0",
            "UPDATE asset SET mediaType = 1 WHERE id % 2 = 0",
            "UPDATE asset SET isHidden = TRUE WHERE id % 41 = 0",
            "UPDATE asset SET deletedAt = 1 WHERE id % 43 = 0",
            "DELETE FROM asset WHERE id % 47 = 0",
        ] {
            try await library.executeSQL(statement)
        }
        for album in [SmartAlbum.all, .favorites, .videos] {
            for filter in MediaFilter.allCases {
                for order in DateOrder.allCases {
                    let options = FetchOptions(mediaFilter: filter, sortOrder: order)
                    let walked = try await collect(library.assets(in: album.collectionIdentifier, options: options)).map(\.id)
                    for position in [TimelineBuckets.jumpThreshold, walked.count / 2 + 7, walked.count - 30, walked.count + 5]
                    where position >= TimelineBuckets.jumpThreshold {
                        let fetch = try await library.assets(in: album.collectionIdentifier, options: options)
                        let range = min(position, fetch.count)..<min(position + 60, fetch.count)
                        let page = try await fetch.assets(in: range).map(\.id)
                        #expect(page == Array(walked[range]), "\(album) \(filter) \(order) at \(position)")
                    }
                }
            }
        }
    }
}
