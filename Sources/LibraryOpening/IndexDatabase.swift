import Foundation
import PostgresIndex

/// Where an indexed library's records live: a SQLite file on this machine (the default, one
/// per library, where ``IndexLocation`` puts it or `--index` says), or a PostgreSQL database that
/// several servers share (`--database postgresql://…`, or `ASSETS_PICKER_DATABASE_URL`).
///
/// Either way the photos' previews and the rendition cache stay on this machine, beside the
/// SQLite file's place.
public enum IndexDatabase: Sendable, Hashable {
    /// The SQLite file at the index URL.
    case sqliteFile
    /// A PostgreSQL database.
    case postgres(PostgresAddress)

    /// The environment variable naming the database when no option does.
    public static let environmentVariable = "ASSETS_PICKER_DATABASE_URL"

    /// The database `option` names, else the environment's, else the SQLite file.
    /// - Throws: ``PostgresIndexError/invalidAddress(_:)`` for anything but a valid
    ///   `postgresql://` URL (saying where it came from, never echoing a password).
    public static func from(option: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> IndexDatabase {
        let (text, source) = option.map { ($0, "--database") } ?? (environment[environmentVariable] ?? "", environmentVariable)
        guard !text.isEmpty else { return .sqliteFile }
        guard PostgresAddress.isPostgresURL(text) else {
            throw PostgresIndexError.invalidAddress("\(source) takes a postgresql://USER:PASSWORD@HOST:PORT/DATABASE URL; leave it out for the SQLite index")
        }
        return .postgres(try PostgresAddress(url: text, environment: environment))
    }
}
