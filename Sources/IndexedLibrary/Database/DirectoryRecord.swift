import AssetsKit
import Foundation
import GRDB
import LibraryTree

/// A row of the `directory` table: a folder of the tree, listed as an album whether it holds
/// assets or not (the root only while it holds media files itself).
struct DirectoryRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "directory"

    var id: Int64
    var relativePath: String
    var uuid: UUID

    /// The id of the directory row for `relativePath`, inserted when missing, with the rows of
    /// the folders above it (every folder of the tree is an album, as on the folder backend).
    /// Its UUID is the folder library's group UUID for the same folder.
    static func id(forPath relativePath: String, in db: Database) throws -> Int64 {
        if let id = try existingID(relativePath, db) { return id }
        let components = relativePath.split(separator: "/")
        for end in components.indices.dropLast() { try record(components[...end].joined(separator: "/"), in: db) }
        try record(relativePath, in: db)
        guard let id = try existingID(relativePath, db) else {
            throw DatabaseError(resultCode: .SQLITE_INTERNAL, message: "directory \(relativePath) vanished inside its transaction")
        }
        return id
    }

    /// Inserts the row of a folder unless it has one; a new row is recorded as a change of its collection.
    static func record(_ relativePath: String, in db: Database) throws {
        let uuid = AssetUUID.forDirectory(atRelativePath: relativePath)
        try db.execute(sql: "INSERT OR IGNORE INTO directory (relativePath, uuid) VALUES (?, ?)", arguments: [relativePath, uuid])
        if db.changesCount > 0 { try db.recordChange(.collection, asset: nil, collection: CollectionID.directory(uuid)) }
    }

    /// The album of a folder (``DirectoryCollection/collection(uuid:relativePath:count:libraryName:)``).
    static func collection(uuid: UUID, relativePath: String, count: Int, libraryName: String) -> AssetCollection {
        DirectoryCollection.collection(uuid: uuid, relativePath: relativePath, count: count, libraryName: libraryName)
    }

    private static func existingID(_ relativePath: String, _ db: Database) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM directory WHERE relativePath = ?"), arguments: [relativePath])
    }
}
