import AssetsKit
import Foundation
import GRDB
import LibraryFolders

/// A row of the `directory` table: a folder of the tree that holds indexed assets.
struct DirectoryRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "directory"

    var id: Int64
    var relativePath: String
    var uuid: UUID

    /// The id of the directory row for `relativePath`, inserted when missing. Its UUID is the
    /// folder library's group UUID for the same folder.
    static func id(forPath relativePath: String, in db: Database) throws -> Int64 {
        try db.execute(sql: "INSERT OR IGNORE INTO directory (relativePath, uuid) VALUES (?, ?)",
                       arguments: [relativePath, AssetUUID.forDirectory(atRelativePath: relativePath)])
        guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM directory WHERE relativePath = ?", arguments: [relativePath]) else {
            throw DatabaseError(resultCode: .SQLITE_INTERNAL, message: "directory \(relativePath) vanished inside its transaction")
        }
        return id
    }
}
