import Foundation
import PostgresNIO

/// Where an index on PostgreSQL is, as a `postgresql://` URL names it (libpq's form):
/// `postgresql://USER:PASSWORD@HOST:PORT/DATABASE?sslmode=MODE`, or a server's socket folder
/// as `?host=/run/postgresql` (then no host before the path). `postgres://` is the same.
///
/// Unset parts are libpq's defaults: port 5432, user `$USER`, database named as the user.
/// `sslmode` is `disable`, `prefer` (the default over TCP, and plain on a socket) or `require`.
/// ``description`` names the server, database and user, never the password.
public struct PostgresAddress: Sendable, Hashable, CustomStringConvertible {
    /// How the server is reached.
    public enum Endpoint: Sendable, Hashable {
        case tcp(host: String, port: Int)
        /// The socket file itself (`FOLDER/.s.PGSQL.PORT`).
        case socket(path: String)
    }

    /// TLS over TCP.
    public enum TLSMode: String, Sendable, Hashable {
        case disable, prefer, require
    }

    /// The server's host and port, or its socket.
    public var endpoint: Endpoint
    /// Who signs in.
    public var user: String
    /// The password, if the server asks for one: the URL's, else the environment's
    /// `PGPASSWORD` (as libpq reads it); never part of ``description``.
    public var password: String?
    /// The database holding the index.
    public var database: String
    /// Whether TCP connections use TLS.
    public var tls: TLSMode

    /// Whether `string` is meant as a PostgreSQL address (its scheme), valid or not.
    public static func isPostgresURL(_ string: String) -> Bool {
        let lower = string.lowercased()
        return lower.hasPrefix("postgresql://") || lower.hasPrefix("postgres://")
    }

    /// Parses a `postgresql://` URL.
    /// - Throws: ``PostgresIndexError/invalidAddress(_:)`` saying what is wrong, without the password.
    public init(url string: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard Self.isPostgresURL(string), let components = URLComponents(string: string) else {
            throw PostgresIndexError.invalidAddress("not a postgresql://USER:PASSWORD@HOST:PORT/DATABASE URL")
        }
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        if let unknown = query.keys.sorted().first(where: { !["sslmode", "host", "port"].contains($0) }) {
            throw PostgresIndexError.invalidAddress("unknown parameter \(unknown) (known: sslmode, host, port)")
        }
        let port = try query["port"].map(Self.port) ?? components.port ?? 5432
        guard (1...65_535).contains(port) else { throw PostgresIndexError.invalidAddress("port \(port) is out of range") }
        let host = query["host"] ?? (components.percentEncodedHost.flatMap { $0.removingPercentEncoding }.flatMap { $0.isEmpty ? nil : $0 })
        if let host, host.hasPrefix("/") {
            endpoint = .socket(path: (host as NSString).appendingPathComponent(".s.PGSQL.\(port)"))
        } else {
            endpoint = .tcp(host: host ?? "localhost", port: port)
        }
        user = components.user.flatMap { $0.isEmpty ? nil : $0 } ?? environment["USER"] ?? "postgres"
        password = components.password ?? environment["PGPASSWORD"]
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard !path.contains("/") else { throw PostgresIndexError.invalidAddress("the database name \(path) has a /") }
        database = path.isEmpty ? user : path
        if let mode = query["sslmode"] {
            guard let tls = TLSMode(rawValue: mode) else {
                throw PostgresIndexError.invalidAddress("sslmode \(mode) is not one of disable, prefer, require")
            }
            self.tls = tls
        } else {
            tls = .prefer
        }
    }

    private static func port(_ text: String) throws -> Int {
        guard let port = Int(text) else { throw PostgresIndexError.invalidAddress("port \(text) is not a number") }
        return port
    }

    /// The server, database and user, as an error names them: `alice@db.example:5432/photos`.
    public var description: String {
        switch endpoint {
        case let .tcp(host, port): "\(user)@\(host):\(port)/\(database)"
        case let .socket(path): "\(user)@\(path)/\(database)"
        }
    }

    /// The pool's configuration.
    var clientConfiguration: PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        switch endpoint {
        case let .tcp(host, port):
            configuration = PostgresClient.Configuration(host: host, port: port, username: user, password: password, database: database,
                                                         tls: clientTLS)
        case let .socket(path):
            configuration = PostgresClient.Configuration(unixSocketPath: path, username: user, password: password, database: database)
        }
        configuration.options.connectTimeout = .seconds(10)
        return configuration
    }

    /// One connection's configuration, for the check made when a store opens.
    var connectionConfiguration: PostgresConnection.Configuration {
        switch endpoint {
        case let .tcp(host, port):
            PostgresConnection.Configuration(host: host, port: port, username: user, password: password, database: database, tls: connectionTLS)
        case let .socket(path):
            PostgresConnection.Configuration(unixSocketPath: path, username: user, password: password, database: database)
        }
    }

    private var clientTLS: PostgresClient.Configuration.TLS {
        switch tls {
        case .disable: .disable
        case .prefer: .prefer(.makeClientConfiguration())
        case .require: .require(.makeClientConfiguration())
        }
    }

    private var connectionTLS: PostgresConnection.Configuration.TLS {
        switch tls {
        case .disable: return .disable
        case .prefer, .require:
            guard let context = try? NIOSSLContext(configuration: .makeClientConfiguration()) else { return .disable }
            return tls == .prefer ? .prefer(context) : .require(context)
        }
    }
}
