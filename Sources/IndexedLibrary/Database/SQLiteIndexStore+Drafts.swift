import Foundation
import GRDB

/// Drafts of picks in the index (`draft`, `draft_item`).
extension SQLiteIndexStore {
    func saveDraft(named name: String, identifiers: [String], savedAt: Date) async throws {
        try await database.pool.write { db in
            try db.execute(sql: "DELETE FROM draft WHERE name = ?", arguments: [name])
            try db.execute(sql: "INSERT INTO draft (name, savedAt) VALUES (?, ?)", arguments: [name, savedAt.timeIntervalSince1970])
            let draftId = db.lastInsertedRowID
            for (position, identifier) in identifiers.enumerated() {
                try db.execute(sql: "INSERT INTO draft_item (draftId, position, identifier) VALUES (?, ?, ?)",
                               arguments: [draftId, position, identifier])
            }
        }
    }

    func draftIdentifiers(named name: String) async throws -> [String]? {
        try await database.pool.read { db -> [String]? in
            guard let draftId = try Int64.fetchOne(db, sql: "SELECT id FROM draft WHERE name = ?", arguments: [name]) else { return nil }
            return try String.fetchAll(db, sql: "SELECT identifier FROM draft_item WHERE draftId = ? ORDER BY position",
                                       arguments: [draftId])
        }
    }

    func draftNames() async throws -> [String] {
        try await database.pool.read { db in try String.fetchAll(db, sql: "SELECT name FROM draft ORDER BY name") }
    }

    func deleteDraft(named name: String) async throws -> Bool {
        try await database.pool.write { db in
            try db.execute(sql: "DELETE FROM draft WHERE name = ?", arguments: [name])
            return db.changesCount > 0
        }
    }
}
