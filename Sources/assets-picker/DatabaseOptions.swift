import ArgumentParser
import Foundation
import LibraryOpening

/// Where an indexed library's records live: the SQLite file, or a PostgreSQL database.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The index's PostgreSQL database, postgresql://USER@HOST:PORT/DATABASE (default: $ASSETS_PICKER_DATABASE_URL, else the SQLite file).",
                                            discussion: """
        Several servers can share one library's index this way (and, for serve, its picker sessions); previews and caches stay on each machine. \
        A socket folder is given as ?host=/run/postgresql; TLS as ?sslmode=disable, prefer or require. \
        A password goes in $PGPASSWORD or in the URL in $ASSETS_PICKER_DATABASE_URL, never on the command line, where every user reads it; it is never printed.
        """))
    var database: String?

    /// The database these options and the environment name.
    /// - Throws: `ValidationError` for an address that is not valid, and for a `--database` that
    ///   carries a password: every user of the machine reads a command line (as the client key).
    func indexDatabase() throws -> IndexDatabase {
        if let database, URLComponents(string: database)?.password != nil {
            throw ValidationError("--database would show its password to every user of this machine; "
                + "give the URL in \(IndexDatabase.environmentVariable), or the password in PGPASSWORD.")
        }
        do {
            return try IndexDatabase.from(option: database)
        } catch {
            throw ValidationError("\(error)")
        }
    }
}
