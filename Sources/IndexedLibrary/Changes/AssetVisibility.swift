import AssetsKit
import Foundation
import GRDB

extension AssetRecord {
    /// The collections whose listings show this row as it is now (see
    /// ``visibleCollections(directory:albums:recentlyAddedSince:)``), its directory and albums read in `db`.
    func visibleCollections(_ db: Database, recentlyAddedSince: Date) throws -> Set<CollectionIdentifier> {
        guard deletedAt == nil, !isHidden else { return visibleCollections(directory: nil, albums: [], recentlyAddedSince: recentlyAddedSince) }
        let directory = try UUID.fetchOne(db, sql: "SELECT uuid FROM directory WHERE id = ?", arguments: [directoryId])
        let albums = try UUID.fetchAll(db, sql: """
            SELECT album.uuid FROM album_asset JOIN album ON album.id = album_asset.albumId WHERE album_asset.assetId = ?
            """, arguments: [id])
        return visibleCollections(directory: directory, albums: albums, recentlyAddedSince: recentlyAddedSince)
    }
}

extension Database {
    /// Records how an asset's place in the listings moved (``ListingTransition``).
    func recordTransition(of asset: UUID, from before: Set<CollectionIdentifier>, to after: Set<CollectionIdentifier>) throws {
        for (kind, collection) in ListingTransition.changes(from: before, to: after) {
            try recordChange(kind, asset: asset, collection: collection)
        }
    }
}
