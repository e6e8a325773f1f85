import Foundation
import PickerSessions
import PostgresIndex
import PostgresNIO

/// The person's sign-in links and signed-in browsers in PostgreSQL (table `person_sign_in`),
/// shared by every picker server on the database: a link printed by one server is taken once by
/// whichever server it is opened on, and a browser signed in through one is signed in on all,
/// after any of them is killed.
///
/// Each row keeps an id and the SHA-256 digest of its secret, never the secret. Taking a link is
/// one `DELETE … RETURNING`, so two servers taking it at once cannot both have it. Keeping a link
/// or browser takes a lock of its own (`pg_advisory_xact_lock`), so the capacity and "unless
/// one is live" are decided once for all servers. Expiry is by the database's clock (`now()`),
/// or a clock given for tests.
public final class PostgresSignInStore: SignInStoring {
    private let database: PostgresPool
    private let clock: (@Sendable () -> Date)?

    /// The key of the advisory lock that keeping a link or a browser takes.
    static let keepLock: Int64 = 0x4153_5345_5453_5349 // "ASSETSSI"

    /// A store in `database`, whose tables are there already (``open(at:)``).
    /// - Parameter now: The clock of expiry; `nil` (the default) for the database's.
    package init(database: PostgresPool, now: (@Sendable () -> Date)? = nil) {
        self.database = database
        clock = now
    }

    /// Connects to the database at `address` and brings its tables of the picker servers'
    /// state to this program's version.
    /// - Parameter now: The clock of expiry; `nil` (the default) for the database's, the one
    ///   clock of every server on it (a test gives its own).
    /// - Throws: `PostgresIndexError`, one line naming the database (never its password).
    public static func open(at address: PostgresAddress, now: (@Sendable () -> Date)? = nil) async throws -> PostgresSignInStore {
        let database = try await PostgresPool.shared(at: address)
        try await PostgresSessionSchema.migrate(database)
        return PostgresSignInStore(database: database, now: now)
    }

    public func keepLink(id: String, digest: [UInt8], lifetime: Duration, capacity: Int, unlessOneIsLive: Bool) async throws -> Bool {
        try await keep(.link, id: id, digest: digest, lifetime: lifetime, capacity: capacity, unlessOneIsLive: unlessOneIsLive) != nil
    }

    public func takeLink(id: String, digest: [UInt8]) async throws -> Bool {
        let time = clock?()
        return try await database.withSession { session in
            try await session.value("""
                DELETE FROM person_sign_in WHERE kind = 'link' AND id = \(id) AND secret_sha256 = \(Data(digest))
                RETURNING expires > COALESCE(\(time)::timestamptz, now())
                """, as: Bool.self) ?? false
        }
    }

    public func keepBrowser(id: String, digest: [UInt8], lifetime: Duration, capacity: Int) async throws -> Date {
        guard let expires = try await keep(.browser, id: id, digest: digest, lifetime: lifetime, capacity: capacity, unlessOneIsLive: false) else {
            throw PostgresIndexError.server(database.address, message: "a signed-in browser was not kept")
        }
        return expires
    }

    public func browsers(ids: [String]) async throws -> [String: (digest: [UInt8], expires: Date)] {
        guard !ids.isEmpty else { return [:] }
        let time = clock?()
        let rows = try await database.withSession { session in
            try await session.rows("""
                SELECT id, secret_sha256, expires FROM person_sign_in
                WHERE kind = 'browser' AND id = ANY(\(ids)) AND expires > COALESCE(\(time)::timestamptz, now())
                """)
        }
        var found: [String: (digest: [UInt8], expires: Date)] = [:]
        for row in rows {
            let (id, digest, expires) = try row.decode((String, Data, Date).self)
            found[id] = ([UInt8](digest), expires)
        }
        return found
    }

    private enum Kind: String {
        case link, browser
    }

    /// Keeps a row of `kind` under the keeping lock: the expired ones dropped, then (unless
    /// `unlessOneIsLive` finds one live) those that expire first while `capacity` are live.
    /// - Returns: When the new row expires; `nil` when it was not kept (one was live).
    private func keep(_ kind: Kind, id: String, digest: [UInt8], lifetime: Duration, capacity: Int,
                      unlessOneIsLive: Bool) async throws -> Date? {
        let time = clock?(), kind = kind.rawValue
        return try await database.transaction { session in
            try await session.execute("SELECT pg_advisory_xact_lock(\(Self.keepLock))")
            try await session.execute("""
                DELETE FROM person_sign_in WHERE kind = \(kind) AND expires <= COALESCE(\(time)::timestamptz, now())
                """)
            if unlessOneIsLive, try await session.value("SELECT count(*) FROM person_sign_in WHERE kind = \(kind)", as: Int.self) ?? 0 > 0 {
                return nil
            }
            try await session.execute("""
                DELETE FROM person_sign_in WHERE kind = \(kind) AND id IN (
                    SELECT id FROM person_sign_in WHERE kind = \(kind) ORDER BY expires DESC, id OFFSET \(max(0, capacity - 1)))
                """)
            guard let expires = try await session.value("""
                INSERT INTO person_sign_in (kind, id, secret_sha256, expires)
                VALUES (\(kind), \(id), \(Data(digest)), COALESCE(\(time)::timestamptz, now()) + make_interval(secs => \(lifetime.seconds)))
                RETURNING expires
                """, as: Date.self) else {
                throw PostgresIndexError.server(database.address, message: "a new sign-in row was not returned")
            }
            return expires
        }
    }
}
