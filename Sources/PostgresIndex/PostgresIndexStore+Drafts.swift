import Foundation
import IndexedLibrary
import PostgresNIO

/// Drafts of picks in the database (`draft`, `draft_item`).
extension PostgresIndexStore {
    package func saveDraft(named name: String, identifiers: [String], savedAt: Date) async throws {
        try await database.write { session in
            try await session.execute("DELETE FROM draft WHERE name = \(name)")
            guard let draftID = try await session.value("""
                INSERT INTO draft (name, savedAt) VALUES (\(name), \(savedAt.timeIntervalSince1970)) RETURNING id
                """, as: Int64.self) else { return }
            try await session.execute("""
                INSERT INTO draft_item (draftId, position, identifier)
                SELECT \(draftID), item.position - 1, item.identifier
                FROM unnest(\(identifiers)::text[]) WITH ORDINALITY AS item(identifier, position)
                """)
        }
    }

    package func draftIdentifiers(named name: String) async throws -> [String]? {
        try await database.read { session -> [String]? in
            guard let draftID = try await session.value("SELECT id FROM draft WHERE name = \(name)", as: Int64.self) else { return nil }
            return try await session.values("SELECT identifier FROM draft_item WHERE draftId = \(draftID) ORDER BY position", as: String.self)
        }
    }

    package func draftNames() async throws -> [String] {
        try await database.withSession { session in
            try await session.values("SELECT name FROM draft ORDER BY name COLLATE \"C\"", as: String.self)
        }
    }

    package func deleteDraft(named name: String) async throws -> Bool {
        try await database.write { session in
            try await !session.values("DELETE FROM draft WHERE name = \(name) RETURNING id", as: Int64.self).isEmpty
        }
    }
}
