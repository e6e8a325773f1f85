import Foundation
import GRDB
@testable import IndexedLibrary
@testable import PostgresIndex
import PostgresNIO
import Testing

/// SQLite's migrations are the schema's one description; PostgreSQL's are checked against them
/// here, so a migration added on one engine and not the other fails.
@Suite("One schema on both engines")
struct SchemaAgreementTests {
    /// A column as both catalogues can say it: name (PostgreSQL folds unquoted names to lower
    /// case), type family and whether it may be null.
    struct Column: Hashable, CustomStringConvertible {
        var name: String
        var family: String
        var required: Bool
        var description: String { "\(name) \(family)\(required ? " not null" : "")" }
    }

    /// Tables each engine has for its own reasons: SQLite's copy of each directory's key asset
    /// (PostgreSQL reads it by a lateral join) and each engine's migration bookkeeping.
    static let engineOwnTables: Set<String> = ["directory_key", "grdb_migrations", "schema_version"]

    /// Columns one engine has for its own reasons: PostgreSQL's previews are recorded per
    /// machine (several machines serve one index there, each with its own preview files).
    static let postgresOwnColumns: [String: Set<String>] = ["preview": ["machine"]]

    @Test("the same tables, columns in the same order with the same types and nullability, and the same browse indexes")
    func sameSchema() async throws {
        let sqliteTree = try TemporaryTree(engine: .sqlite), postgresTree = try TemporaryTree(engine: .postgresql)
        defer { sqliteTree.remove(); postgresTree.remove() }
        let sqlite = try await sqliteTree.openLibrary(), postgres = try await postgresTree.openLibrary()
        let (sqliteTables, sqliteIndexes) = try await Self.sqliteSchema(sqlite.database)
        let (postgresTables, postgresIndexes) = try await Self.postgresSchema((postgres.index as! PostgresIndexStore).database)
        #expect(sqliteTables.count >= 12 && sqliteIndexes.count >= 12, "both catalogues were read")
        #expect(Set(sqliteTables.keys) == Set(postgresTables.keys))
        for (table, columns) in sqliteTables {
            #expect(postgresTables[table] == columns, "\(table)")
        }
        #expect(sqliteIndexes == postgresIndexes)
    }

    private static func family(_ type: String) -> String {
        switch type.lowercased() {
        case "integer", "bigint": "integer"
        case "real", "double precision": "real"
        case "blob", "uuid": "uuid"
        default: type.lowercased()
        }
    }

    private static func sqliteSchema(_ database: LibraryDatabase) async throws -> ([String: [Column]], [String: [String]]) {
        try await database.pool.read { db in
            var tables: [String: [Column]] = [:]
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
            where !engineOwnTables.contains(table) {
                tables[table] = try Row.fetchAll(db, sql: "SELECT name, type, \"notnull\" OR pk > 0 FROM pragma_table_info(?) ORDER BY cid",
                                                 arguments: [table]).map {
                    Column(name: ($0[0] as String).lowercased(), family: family($0[1]), required: $0[2])
                }
            }
            var indexes: [String: [String]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
            where !engineOwnTables.contains(row[1]) {
                indexes[row[0]] = try String.fetchAll(db, sql: "SELECT name FROM pragma_index_info(?) ORDER BY seqno", arguments: [row[0] as String])
                    .map { $0.lowercased() }
            }
            return (tables, indexes)
        }
    }

    private static func postgresSchema(_ database: PostgresPool) async throws -> ([String: [Column]], [String: [String]]) {
        try await database.read { session in
            var tables: [String: [Column]] = [:]
            for row in try await session.rows("""
                SELECT table_name, column_name, data_type, is_nullable = 'NO' FROM information_schema.columns
                WHERE table_schema = 'public' ORDER BY table_name, ordinal_position
                """) {
                let (table, name, type, required) = try row.decode((String, String, String, Bool).self)
                guard !engineOwnTables.contains(table), postgresOwnColumns[table]?.contains(name) != true else { continue }
                tables[table, default: []].append(Column(name: name, family: family(type), required: required))
            }
            var indexes: [String: [String]] = [:]
            for row in try await session.rows("""
                SELECT index.relname, array_agg(attribute.attname::text ORDER BY key.position)
                FROM pg_index AS description
                JOIN pg_class AS index ON index.oid = description.indexrelid
                JOIN pg_class AS owner ON owner.oid = description.indrelid
                CROSS JOIN LATERAL unnest(description.indkey) WITH ORDINALITY AS key(number, position)
                JOIN pg_attribute AS attribute ON attribute.attrelid = owner.oid AND attribute.attnum = key.number
                WHERE owner.relnamespace = 'public'::regnamespace AND NOT description.indisprimary AND NOT description.indisunique
                GROUP BY index.relname
                """) {
                let (name, columns) = try row.decode((String, [String]).self)
                indexes[name] = columns
            }
            return (tables, indexes)
        }
    }
}
