import AssetsKit
import Foundation
import IndexedLibrary
import LibraryTree
import PostgresNIO

/// The writes that change batches and scan batches share: the change history, directory rows
/// and asset removals.
extension PostgresSession {
    /// Appends a row to the change history; its token is the new latest token.
    func recordChange(_ kind: ChangeKind, asset: UUID?, collection: CollectionIdentifier? = nil) async throws {
        try await execute("INSERT INTO change (assetUUID, collectionId, kind) VALUES (\(asset), \(collection?.rawValue), \(kind.rawValue))")
    }

    /// Records how an asset's place in the listings moved (`ListingTransition`).
    func recordTransition(of asset: UUID, from before: Set<CollectionIdentifier>, to after: Set<CollectionIdentifier>) async throws {
        for (kind, collection) in ListingTransition.changes(from: before, to: after) {
            try await recordChange(kind, asset: asset, collection: collection)
        }
    }

    /// The collections whose listings show `record` as it is now, its directory and albums read here.
    func visibleCollections(of record: AssetRecord, recentlyAddedSince: Date) async throws -> Set<CollectionIdentifier> {
        guard record.deletedAt == nil, !record.isHidden else {
            return record.visibleCollections(directory: nil, albums: [], recentlyAddedSince: recentlyAddedSince)
        }
        let directory = try await value("SELECT uuid FROM directory WHERE id = \(record.directoryId)", as: UUID.self)
        let albums = try await values("""
            SELECT album.uuid FROM album_asset JOIN album ON album.id = album_asset.albumId WHERE album_asset.assetId = \(record.id)
            """, as: UUID.self)
        return record.visibleCollections(directory: directory, albums: albums, recentlyAddedSince: recentlyAddedSince)
    }

    /// The row of an asset by UUID (Recently Deleted included).
    func record(uuid: UUID) async throws -> AssetRecord? {
        try await assetRecords("SELECT asset.* FROM asset WHERE uuid = \(uuid)").first
    }

    /// The row of an asset by row id.
    func record(id: Int64) async throws -> AssetRecord? {
        try await assetRecords("SELECT asset.* FROM asset WHERE id = \(id)").first
    }

    /// The id of the directory row for `relativePath`, inserted when missing, with the rows of
    /// the folders above it (every folder of the tree is an album). Its UUID is the folder
    /// library's group UUID for the same folder.
    func directoryID(forPath relativePath: String) async throws -> Int64 {
        if let id = try await value("SELECT id FROM directory WHERE relativePath = \(relativePath)", as: Int64.self) { return id }
        let components = relativePath.split(separator: "/")
        for end in components.indices.dropLast() { try await recordDirectory(components[...end].joined(separator: "/")) }
        try await recordDirectory(relativePath)
        guard let id = try await value("SELECT id FROM directory WHERE relativePath = \(relativePath)", as: Int64.self) else {
            throw PostgresIndexError.server(address, message: "directory \(relativePath) vanished inside its transaction")
        }
        return id
    }

    /// Inserts the row of a folder unless it has one; a new row is recorded as a change of its collection.
    func recordDirectory(_ relativePath: String) async throws {
        let uuid = AssetUUID.forDirectory(atRelativePath: relativePath)
        let inserted = try await values("""
            INSERT INTO directory (relativePath, uuid) VALUES (\(relativePath), \(uuid)) ON CONFLICT DO NOTHING RETURNING id
            """, as: Int64.self)
        if !inserted.isEmpty { try await recordChange(.collection, asset: nil, collection: CollectionID.directory(uuid)) }
    }

    /// Removes asset rows (their album memberships go with them) and records the removals.
    func removeAssets(_ ids: [Int64]) async throws {
        for id in ids {
            guard let row = try await rows("""
                DELETE FROM asset WHERE id = \(id)
                RETURNING uuid, (SELECT uuid FROM directory WHERE directory.id = asset.directoryId)
                """).first else { continue }
            let (uuid, directory) = try row.decode((UUID, UUID).self)
            try await recordChange(.removed, asset: uuid)
            try await recordChange(.removed, asset: uuid, collection: CollectionID.directory(directory))
        }
    }
}
