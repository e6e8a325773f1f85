import AssetsKit
import Foundation

extension AssetRecord {
    /// The collections whose listings show this row as it is now: a deleted asset is only in
    /// Recently Deleted, a hidden one in none; otherwise All Photos, the smart albums whose rule
    /// it meets, its directory (`directory`, its UUID) and the user albums holding it (`albums`).
    package func visibleCollections(directory: UUID?, albums: [UUID], recentlyAddedSince: Date) -> Set<CollectionIdentifier> {
        if deletedAt != nil { return [SmartAlbum.recentlyDeleted.collectionIdentifier] }
        if isHidden { return [] }
        var collections: Set<CollectionIdentifier> = [SmartAlbum.all.collectionIdentifier]
        if isFavorite { collections.insert(SmartAlbum.favorites.collectionIdentifier) }
        if mediaType == MediaType.video.databaseCode { collections.insert(SmartAlbum.videos.collectionIdentifier) }
        if addedAt >= recentlyAddedSince.timeIntervalSince1970 { collections.insert(SmartAlbum.recentlyAdded.collectionIdentifier) }
        if let directory { collections.insert(CollectionID.directory(directory)) }
        collections.formUnion(albums.map(CollectionID.album))
        return collections
    }
}

/// How an asset's place in the listings moved, as the change rows to record: removed from the
/// collections it left, inserted into those it joined, changed in those it stayed in (each
/// group in identifier order, so both stores record the same rows).
package enum ListingTransition {
    /// The `(kind, collection)` rows for an asset that was in `before`'s listings and is in `after`'s.
    package static func changes(from before: Set<CollectionIdentifier>,
                                to after: Set<CollectionIdentifier>) -> [(kind: ChangeKind, collection: CollectionIdentifier)] {
        func sorted(_ set: Set<CollectionIdentifier>) -> [CollectionIdentifier] { set.sorted { $0.rawValue < $1.rawValue } }
        return sorted(before.subtracting(after)).map { (.removed, $0) }
            + sorted(after.subtracting(before)).map { (.inserted, $0) }
            + sorted(before.intersection(after)).map { (.changed, $0) }
    }
}
