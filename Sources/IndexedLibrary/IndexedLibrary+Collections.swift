import AssetsKit
import Foundation
import GRDB

extension IndexedLibrary {
    /// The smart albums, All Photos first; then user albums and folders by position; then the
    /// directories holding assets, by path. Estimated counts are exact at the time of the call.
    public func collections() async throws -> [AssetCollection] {
        let since = now().addingTimeInterval(-Self.recentlyAddedInterval)
        let rootTitle = rootURL.lastPathComponent
        return try await database.pool.read { db in
            var collections = try SmartAlbum.allCases.map { smart in
                try Self.collection(smart, count: AssetQuery(smart.collectionIdentifier, filter: .all, recentlyAddedSince: since, in: db).count(db))
            }
            let albums = try Row.fetchAll(db, sql: """
                SELECT album.uuid, album.title, album.kind, parent.uuid AS parentUUID,
                       (SELECT COUNT(*) FROM album_asset JOIN asset ON asset.id = album_asset.assetId
                        WHERE album_asset.albumId = album.id AND asset.deletedAt IS NULL AND asset.isHidden = 0) AS count
                FROM album LEFT JOIN album parent ON parent.id = album.parentId
                ORDER BY album.parentId IS NOT NULL, album.parentId, album.position
                """)
            for row in albums {
                let isFolder = (row["kind"] as String) == "folder"
                collections.append(AssetCollection(
                    id: CollectionID.album(row["uuid"]), title: row["title"], kind: isFolder ? .folder : .album,
                    estimatedAssetCount: isFolder ? nil : row["count"],
                    parentID: (row["parentUUID"] as UUID?).map(CollectionID.album)))
            }
            let directories = try Row.fetchAll(db, sql: """
                SELECT directory.uuid, directory.relativePath, SUM(asset_count.count) AS count
                FROM directory JOIN asset_count ON asset_count.directoryId = directory.id
                GROUP BY directory.id ORDER BY directory.relativePath
                """)
            for row in directories {
                let path: String = row["relativePath"]
                collections.append(AssetCollection(
                    id: CollectionID.directory(row["uuid"]), title: AssetCollection.directoryTitle(relativePath: path, libraryName: rootTitle),
                    kind: .directory, estimatedAssetCount: row["count"]))
            }
            return collections
        }
    }

    public func cameraRoll() async throws -> AssetCollection {
        Self.collection(.all, count: try await assetCount(in: SmartAlbum.all.collectionIdentifier, filter: .all))
    }

    public func assetCount(in collection: CollectionIdentifier, filter: MediaFilter) async throws -> Int {
        let since = now().addingTimeInterval(-Self.recentlyAddedInterval)
        return try await database.pool.read { db in
            try AssetQuery(collection, filter: filter, recentlyAddedSince: since, in: db).count(db)
        }
    }

    private static func collection(_ smart: SmartAlbum, count: Int) -> AssetCollection {
        AssetCollection(id: smart.collectionIdentifier, title: smart.title, kind: smart == .all ? .cameraRoll : .smartAlbum,
                        estimatedAssetCount: count)
    }
}
