import AssetsKit
import Foundation
import IndexedLibrary
import PostgresNIO

/// User albums and folders (rows of `album`), and album membership with its own order.
extension PostgresChangeBatch {
    enum AlbumKind: String {
        case album
        case folder
    }

    /// An `album` row named in a request.
    struct AlbumRow {
        let id: Int64
        let uuid: UUID
        let kind: AlbumKind
        let title: String
        var identifier: CollectionIdentifier { CollectionID.album(uuid) }
    }

    /// The user album or folder `identifier` names, of `kind` when given.
    func album(_ identifier: CollectionIdentifier, kind: AlbumKind? = nil) async throws -> AlbumRow {
        guard case .album(let uuid) = CollectionID(identifier) else { throw InvalidChange.notUserCollection(identifier) }
        guard let row = try await session.rows("SELECT id, kind, title FROM album WHERE uuid = \(uuid)").first else {
            throw InvalidChange.noCollection(identifier)
        }
        let (id, kindName, title) = try row.decode((Int64, String, String).self)
        guard let found = AlbumKind(rawValue: kindName) else { throw InvalidChange.noCollection(identifier) }
        if let kind, kind != found {
            throw InvalidChange.wrongKind(identifier, title: title, is: found.rawValue, expected: kind.rawValue)
        }
        return AlbumRow(id: id, uuid: uuid, kind: found, title: title)
    }

    func createCollection(title: String, kind: AlbumKind, inFolder folder: CollectionIdentifier?) async throws -> CollectionIdentifier {
        let title = try InvalidChange.validTitle(title)
        let parent = try await folder.asyncMap { try await album($0, kind: .folder) }
        let position = try await session.value("""
            SELECT COALESCE(MAX(position) + 1, 0) FROM album WHERE parentId IS NOT DISTINCT FROM \(parent?.id)
            """, as: Int64.self) ?? 0
        let uuid = UUID()
        try await session.execute("""
            INSERT INTO album (uuid, title, kind, parentId, position, createdAt)
            VALUES (\(uuid), \(title), \(kind.rawValue), \(parent?.id), \(position), \(now.timeIntervalSince1970))
            """)
        try await session.recordChange(.collection, asset: nil, collection: CollectionID.album(uuid))
        return CollectionID.album(uuid)
    }

    func rename(_ collection: CollectionIdentifier, to title: String) async throws {
        let row = try await album(collection)
        let title = try InvalidChange.validTitle(title)
        try await session.execute("UPDATE album SET title = \(title) WHERE id = \(row.id)")
        try await session.recordChange(.collection, asset: nil, collection: row.identifier)
    }

    /// Deletes an album (its memberships go; the assets stay) or an empty folder.
    func delete(_ collection: CollectionIdentifier) async throws {
        let row = try await album(collection)
        if row.kind == .folder {
            let children = try await session.value("SELECT COUNT(*) FROM album WHERE parentId = \(row.id)", as: Int.self) ?? 0
            guard children == 0 else { throw InvalidChange.folderNotEmpty(title: row.title, children: children) }
        }
        let members = try await session.values("""
            SELECT asset.uuid FROM album_asset JOIN asset ON asset.id = album_asset.assetId
            WHERE album_asset.albumId = \(row.id) AND \(unescaped: PostgresAssetQuery.visible) ORDER BY album_asset.position
            """, as: UUID.self)
        for member in members { try await session.recordChange(.removed, asset: member, collection: row.identifier) }
        try await session.execute("DELETE FROM album WHERE id = \(row.id)")
        try await session.recordChange(.collection, asset: nil, collection: row.identifier)
    }

    /// Appends assets to an album in the order given; members already there stay where they are.
    func add(_ identifiers: [AssetIdentifier], to collection: CollectionIdentifier) async throws {
        let row = try await album(collection, kind: .album)
        var position = try await session.value("SELECT COALESCE(MAX(position) + 1, 0) FROM album_asset WHERE albumId = \(row.id)",
                                               as: Int64.self) ?? 0
        for identifier in identifiers {
            let asset = try await record(identifier)
            let inserted = try await session.values("""
                INSERT INTO album_asset (albumId, assetId, position) VALUES (\(row.id), \(asset.id), \(position))
                ON CONFLICT DO NOTHING RETURNING 1
                """, as: Int.self)
            guard !inserted.isEmpty else { continue }
            position += 1
            if asset.deletedAt == nil, !asset.isHidden { try await session.recordChange(.inserted, asset: asset.uuid, collection: row.identifier) }
        }
    }

    /// Takes assets out of an album; the assets stay in the library. Non-members are ignored.
    func remove(_ identifiers: [AssetIdentifier], from collection: CollectionIdentifier) async throws {
        let row = try await album(collection, kind: .album)
        for identifier in identifiers {
            let asset = try await record(identifier)
            let removed = try await session.values("""
                DELETE FROM album_asset WHERE albumId = \(row.id) AND assetId = \(asset.id) RETURNING 1
                """, as: Int.self)
            if !removed.isEmpty, asset.deletedAt == nil, !asset.isHidden {
                try await session.recordChange(.removed, asset: asset.uuid, collection: row.identifier)
            }
        }
    }

    /// Puts the named members first, in the order given; the other members keep their relative
    /// order after them. Naming an asset that is not a member is refused.
    func reorder(_ identifiers: [AssetIdentifier], in collection: CollectionIdentifier) async throws {
        let row = try await album(collection, kind: .album)
        let members = try await session.values("SELECT assetId FROM album_asset WHERE albumId = \(row.id) ORDER BY position", as: Int64.self)
        let memberSet = Set(members)
        var first: [Int64] = []
        var named: Set<Int64> = []
        for identifier in identifiers {
            let asset = try await record(identifier)
            guard let id = asset.id, memberSet.contains(id) else {
                throw InvalidChange.notMember(identifier, filename: asset.filename, albumTitle: row.title)
            }
            if named.insert(id).inserted { first.append(id) }
        }
        let order = first + members.filter { !named.contains($0) }
        try await session.execute("""
            UPDATE album_asset SET position = ordered.position - 1
            FROM unnest(\(order)::bigint[]) WITH ORDINALITY AS ordered(assetId, position)
            WHERE album_asset.albumId = \(row.id) AND album_asset.assetId = ordered.assetId
            """)
        try await session.recordChange(.collection, asset: nil, collection: row.identifier)
    }
}

private extension Optional {
    func asyncMap<Mapped>(_ transform: (Wrapped) async throws -> Mapped) async rethrows -> Mapped? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
