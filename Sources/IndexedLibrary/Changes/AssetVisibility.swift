import AssetsKit
import Foundation
import GRDB

extension AssetRecord {
    /// The collections whose listings show this row as it is now: a deleted asset is only in
    /// Recently Deleted, a hidden one in none; otherwise All Photos, the smart albums whose rule
    /// it meets, its directory and the albums holding it.
    func visibleCollections(_ db: Database, recentlyAddedSince: Date) throws -> Set<CollectionIdentifier> {
        if deletedAt != nil { return [SmartAlbum.recentlyDeleted.collectionIdentifier] }
        if isHidden { return [] }
        var collections: Set<CollectionIdentifier> = [SmartAlbum.all.collectionIdentifier]
        if isFavorite { collections.insert(SmartAlbum.favorites.collectionIdentifier) }
        if mediaType == MediaType.video.databaseCode { collections.insert(SmartAlbum.videos.collectionIdentifier) }
        if addedAt >= recentlyAddedSince.timeIntervalSince1970 { collections.insert(SmartAlbum.recentlyAdded.collectionIdentifier) }
        if let directory = try UUID.fetchOne(db, sql: "SELECT uuid FROM directory WHERE id = ?", arguments: [directoryId]) {
            collections.insert(CollectionID.directory(directory))
        }
        let albums = try UUID.fetchAll(db, sql: """
            SELECT album.uuid FROM album_asset JOIN album ON album.id = album_asset.albumId WHERE album_asset.assetId = ?
            """, arguments: [id])
        collections.formUnion(albums.map(CollectionID.album))
        return collections
    }
}

extension Database {
    /// Records how an asset's place in the listings moved: removed from the collections it
    /// left, inserted into those it joined, changed in those it stayed in.
    func recordTransition(of asset: UUID, from before: Set<CollectionIdentifier>, to after: Set<CollectionIdentifier>) throws {
        for collection in before.subtracting(after).sorted(by: { $0.rawValue < $1.rawValue }) {
            try recordChange(.removed, asset: asset, collection: collection)
        }
        for collection in after.subtracting(before).sorted(by: { $0.rawValue < $1.rawValue }) {
            try recordChange(.inserted, asset: asset, collection: collection)
        }
        for collection in before.intersection(after).sorted(by: { $0.rawValue < $1.rawValue }) {
            try recordChange(.changed, asset: asset, collection: collection)
        }
    }
}
