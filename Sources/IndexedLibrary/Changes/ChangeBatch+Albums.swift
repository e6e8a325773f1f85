import AssetsKit
import Foundation
import GRDB

/// User albums and folders (rows of `album`), and album membership with its own order.
extension ChangeBatch {
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
    func album(_ identifier: CollectionIdentifier, kind: AlbumKind? = nil) throws -> AlbumRow {
        guard case .album(let uuid) = CollectionID(identifier) else {
            throw InvalidChange.notUserCollection(identifier)
        }
        guard let row = try Row.fetchOne(db, sql: "SELECT id, kind, title FROM album WHERE uuid = ?", arguments: [uuid]),
              let found = AlbumKind(rawValue: row["kind"]) else {
            throw InvalidChange.noCollection(identifier)
        }
        if let kind, kind != found {
            throw InvalidChange.wrongKind(identifier, title: row["title"], is: found.rawValue, expected: kind.rawValue)
        }
        return AlbumRow(id: row["id"], uuid: uuid, kind: found, title: row["title"])
    }

    func createCollection(title: String, kind: AlbumKind, inFolder folder: CollectionIdentifier?) throws -> CollectionIdentifier {
        let title = try InvalidChange.validTitle(title)
        let parent = try folder.map { try album($0, kind: .folder) }
        let position = try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(position) + 1, 0) FROM album WHERE parentId IS ?",
                                        arguments: [parent?.id]) ?? 0
        let uuid = UUID()
        try db.execute(sql: "INSERT INTO album (uuid, title, kind, parentId, position, createdAt) VALUES (?, ?, ?, ?, ?, ?)",
                       arguments: [uuid, title, kind.rawValue, parent?.id, position, now.timeIntervalSince1970])
        try db.recordChange(.collection, asset: nil, collection: CollectionID.album(uuid))
        return CollectionID.album(uuid)
    }

    func rename(_ collection: CollectionIdentifier, to title: String) throws {
        let row = try album(collection)
        try db.execute(sql: "UPDATE album SET title = ? WHERE id = ?", arguments: [try InvalidChange.validTitle(title), row.id])
        try db.recordChange(.collection, asset: nil, collection: row.identifier)
    }

    /// Deletes an album (its memberships go; the assets stay in the library) or an empty
    /// folder. A folder that still holds albums or folders is refused: delete or move what it
    /// holds first (in the same batch if need be), so nothing is lost by one request.
    func delete(_ collection: CollectionIdentifier) throws {
        let row = try album(collection)
        if row.kind == .folder {
            let children = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM album WHERE parentId = ?", arguments: [row.id]) ?? 0
            guard children == 0 else {
                throw InvalidChange.folderNotEmpty(title: row.title, children: children)
            }
        }
        let members = try UUID.fetchAll(db, sql: """
            SELECT asset.uuid FROM album_asset JOIN asset ON asset.id = album_asset.assetId
            WHERE album_asset.albumId = ? AND asset.deletedAt IS NULL AND asset.isHidden = 0 ORDER BY album_asset.position
            """, arguments: [row.id])
        for member in members { try db.recordChange(.removed, asset: member, collection: row.identifier) }
        try db.execute(sql: "DELETE FROM album WHERE id = ?", arguments: [row.id])
        try db.recordChange(.collection, asset: nil, collection: row.identifier)
    }

    /// Appends assets to an album in the order given; members already there stay where they are.
    func add(_ identifiers: [AssetIdentifier], to collection: CollectionIdentifier) throws {
        let row = try album(collection, kind: .album)
        var position = try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(position) + 1, 0) FROM album_asset WHERE albumId = ?",
                                        arguments: [row.id]) ?? 0
        for identifier in identifiers {
            let asset = try record(identifier)
            try db.execute(sql: "INSERT OR IGNORE INTO album_asset (albumId, assetId, position) VALUES (?, ?, ?)",
                           arguments: [row.id, asset.id, position])
            guard db.changesCount > 0 else { continue }
            position += 1
            if asset.deletedAt == nil, !asset.isHidden { try db.recordChange(.inserted, asset: asset.uuid, collection: row.identifier) }
        }
    }

    /// Takes assets out of an album; the assets stay in the library. Non-members are ignored.
    func remove(_ identifiers: [AssetIdentifier], from collection: CollectionIdentifier) throws {
        let row = try album(collection, kind: .album)
        for identifier in identifiers {
            let asset = try record(identifier)
            try db.execute(sql: "DELETE FROM album_asset WHERE albumId = ? AND assetId = ?", arguments: [row.id, asset.id])
            if db.changesCount > 0, asset.deletedAt == nil, !asset.isHidden {
                try db.recordChange(.removed, asset: asset.uuid, collection: row.identifier)
            }
        }
    }

    /// Puts the named members first, in the order given; the other members keep their
    /// relative order after them. Naming an asset that is not a member is refused.
    func reorder(_ identifiers: [AssetIdentifier], in collection: CollectionIdentifier) throws {
        let row = try album(collection, kind: .album)
        let members = try Int64.fetchAll(db, sql: "SELECT assetId FROM album_asset WHERE albumId = ? ORDER BY position",
                                         arguments: [row.id])
        let memberSet = Set(members)
        var first: [Int64] = []
        var named: Set<Int64> = []
        for identifier in identifiers {
            let asset = try record(identifier)
            guard let id = asset.id, memberSet.contains(id) else {
                throw InvalidChange.notMember(identifier, filename: asset.filename, albumTitle: row.title)
            }
            if named.insert(id).inserted { first.append(id) }
        }
        for (position, id) in (first + members.filter { !named.contains($0) }).enumerated() {
            try db.execute(sql: "UPDATE album_asset SET position = ? WHERE albumId = ? AND assetId = ?", arguments: [position, row.id, id])
        }
        try db.recordChange(.collection, asset: nil, collection: row.identifier)
    }
}
