import AssetsKit
import Foundation
import PostgresNIO

/// Why an index on PostgreSQL could not be opened or used: one line a person can act on,
/// naming the server, database and user (``PostgresAddress/description``), never the password.
public enum PostgresIndexError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The URL is not one this program understands.
    case invalidAddress(String)
    /// No server answered there.
    case unreachable(PostgresAddress, reason: String)
    /// The server refused the user or password.
    case authenticationFailed(PostgresAddress)
    /// The server has no such database.
    case noDatabase(PostgresAddress)
    /// The server answered with an error.
    case server(PostgresAddress, message: String)
    /// The server is shutting down, starting up or out of connections (SQLSTATE class 08, 57P01–57P03, 53300).
    case unavailable(PostgresAddress, message: String)
    /// The database holds an index made by a newer version of this program.
    case newerSchema(PostgresAddress, version: Int, known: Int)

    public var description: String {
        switch self {
        case let .invalidAddress(reason):
            "the database URL is not valid: \(reason)"
        case let .unreachable(address, reason):
            "PostgreSQL at \(address) cannot be reached (\(reason)): is the server running, and are the host and port right?"
        case let .authenticationFailed(address):
            "PostgreSQL at \(address) refused the user or password: check them in --database or ASSETS_PICKER_DATABASE_URL"
        case let .noDatabase(address):
            "PostgreSQL at \(address): there is no database \(address.database); create it (createdb \(address.database)) or name another"
        case let .server(address, message):
            "PostgreSQL at \(address): \(message)"
        case let .unavailable(address, message):
            "PostgreSQL at \(address) cannot answer now (\(message)); try again in a moment"
        case let .newerSchema(address, version, known):
            "PostgreSQL at \(address): the index is of schema version \(version), newer than this program's \(known); update assets-picker"
        }
    }

    /// What `error`, thrown while talking to the server at `address`, means to a person.
    static func from(_ error: any Error, at address: PostgresAddress) -> PostgresIndexError {
        if let error = error as? PostgresIndexError { return error }
        guard let error = error as? PSQLError else { return .unreachable(address, reason: String(describing: type(of: error))) }
        switch error.code {
        case .server:
            let state = error.serverInfo?[.sqlState] ?? ""
            if state == "28P01" || state == "28000" { return .authenticationFailed(address) }
            if state == "3D000" { return .noDatabase(address) }
            if state.hasPrefix("08") || ["57P01", "57P02", "57P03", "53300"].contains(state) {
                return .unavailable(address, message: error.serverInfo?[.message] ?? "error \(state)")
            }
            return .server(address, message: error.serverInfo?[.message] ?? "error \(state)")
        case .authMechanismRequiresPassword, .unsupportedAuthMechanism, .saslError:
            return .authenticationFailed(address)
        case .sslUnsupported:
            return .unreachable(address, reason: "the server does not offer TLS, which sslmode=require asks for")
        default:
            return .unreachable(address, reason: error.underlying.map { Self.reason($0) } ?? "\(error.code)")
        }
    }

    /// A socket error's few words (`connection refused`), without the rest of NIO's description.
    private static func reason(_ error: any Error) -> String {
        if let error = error as? NIOConnectionError, let first = error.connectionErrors.first { return reason(first.error) }
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)).lowercased() }
        let text = String(describing: error)
        return text.count > 120 ? String(text.prefix(120)) + "…" : text
    }
}

extension PostgresIndexError: RetryableFailure {
    /// Seconds to wait when the database cannot answer now but may in a moment (unreachable, or
    /// shutting down, starting up, out of connections: a restart takes seconds); `nil` for
    /// what waiting does not mend (a wrong address or password, a missing database, a newer schema).
    public var retryAfterSeconds: Int? {
        switch self {
        case .unreachable, .unavailable: 2
        case .invalidAddress, .authenticationFailed, .noDatabase, .server, .newerSchema: nil
        }
    }
}
