import AssetsKit
import Foundation
import PickerSessions
import PostgresIndex
import PostgresNIO

/// Picker sessions kept in PostgreSQL, shared by every server that opens the same database: any
/// of them answers any request of any session, and a server killed between two requests loses
/// nothing.
///
/// Each change is one transaction that locks the session's row (`SELECT … FOR UPDATE`), so
/// changes through several servers take turns: picks get their positions from the row's counter
/// (one order), the picks' primary key holds each asset once, the maximum is counted under the
/// lock, and Done or Cancel happens once. Creating takes an advisory lock, so the capacity and
/// the person's own places are counted over every server. Expiry is measured on one clock, the
/// database's (``SessionClock``). Every change notifies `assets_picker_sessions` with
/// `"<id> <version>"` in its transaction, which ``updates(of:)`` of every server follow.
///
/// A database that cannot be reached or refuses a statement is thrown as
/// `SessionStoreFailure`, never answered as an unknown session.
public final class PostgresSessionStore: SessionStoring {
    public let lifetime: Duration
    /// The most sessions alive at once, over every server.
    public let capacity: Int
    /// The most of the person's own sessions alive at once, over every server.
    public let ownCapacity: Int
    let database: PostgresPool
    let clock: SessionClock
    let watch: PostgresSessionWatch

    /// Opens the session tables of the PostgreSQL database at `address`, making or migrating them
    /// first.
    /// - Parameters:
    ///   - address: The database, as `--database` names it.
    ///   - lifetime: How long a session lives after it is created.
    ///   - capacity: The most sessions alive at once, over every server.
    ///   - ownCapacity: How many of those places are kept for the person's own sessions.
    ///   - clock: The clock expiry is measured on; the database's unless a test gives another.
    /// - Throws: `SessionStoreFailure` when the database cannot be reached or migrated.
    public convenience init(address: PostgresAddress, lifetime: Duration = .seconds(3_600), capacity: Int = 10_000, ownCapacity: Int = 20,
                            clock: SessionClock = .database) async throws {
        let database: PostgresPool
        do {
            database = try await PostgresPool.shared(at: address)
        } catch {
            throw SessionStoreFailure(reason: String(describing: error))
        }
        try await self.init(database: database, lifetime: lifetime, capacity: capacity, ownCapacity: ownCapacity, clock: clock)
    }

    /// Opens the session tables of `database`, making or migrating them first, and starts
    /// listening for changes to sessions.
    package init(database: PostgresPool, lifetime: Duration = .seconds(3_600), capacity: Int = 10_000, ownCapacity: Int = 20,
                 clock: SessionClock = .database) async throws {
        precondition(ownCapacity <= capacity, "the own sessions' places are some of the capacity")
        self.database = database
        self.lifetime = lifetime
        self.capacity = capacity
        self.ownCapacity = ownCapacity
        self.clock = clock
        do {
            try await PostgresSessionSchema.migrate(database)
        } catch {
            throw SessionStoreFailure(reason: String(describing: error))
        }
        watch = PostgresSessionWatch(database: database, clock: clock)
        await watch.listening()
    }

    /// Runs `body` against the database; what the database threw becomes a `SessionStoreFailure`,
    /// a session's own refusals (``PickerSessionError``, ``SelectionError``) pass as they are.
    func run<Result: Sendable>(_ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch let error as PickerSessionError {
            throw error
        } catch let error as SelectionError {
            throw error
        } catch let error as CancellationError {
            throw error
        } catch {
            throw SessionStoreFailure(reason: String(describing: error))
        }
    }

    public func currentTime() async throws -> Date {
        if let time = clock.time { return time }
        return try await run { try await database.withSession { try await $0.value("SELECT now()", as: Date.self) } } ?? Date()
    }

    public func create(settings: PickerSessionSettings, preselected: [String], place: SessionPlace) async throws -> PickerSession {
        let (id, token, time) = (SecretToken.make(), SecretToken.make(), clock.time)
        let (capacity, ownCapacity, lifetime) = (capacity, ownCapacity, lifetime.seconds)
        let created = try await run {
            try await database.transaction { session -> PostgresSessionRecord? in
                try await session.execute("SELECT pg_advisory_xact_lock(\(PostgresSessionSchema.createLock))")
                // Sessions past their forget time go first, a bounded number at a time.
                try await session.execute("""
                    DELETE FROM picker_session WHERE id IN
                        (SELECT id FROM picker_session WHERE forget_time <= COALESCE(\(time)::timestamptz, now()) LIMIT 1000)
                    """)
                let counts = try await session.rows("""
                    SELECT count(*) FILTER (WHERE NOT own), count(*) FILTER (WHERE own)
                    FROM picker_session WHERE expire_time > COALESCE(\(time)::timestamptz, now())
                    """)
                let (shared, own) = try counts[0].decode((Int, Int).self)
                switch place {
                case .shared: guard shared < capacity - ownCapacity else { throw PickerSessionError.tooManySessions(capacity - ownCapacity) }
                case .own: guard own < ownCapacity else { throw PickerSessionError.tooManyOwnSessions(ownCapacity) }
                }
                guard shared + own < capacity else { throw PickerSessionError.tooManySessions(capacity) }
                try await session.execute("""
                    INSERT INTO picker_session (id, picker_token, max_items, media_filter, pick_order, own,
                                                create_time, expire_time, forget_time, pending_preselection)
                    SELECT \(id), \(token), \(settings.maxItems), \(settings.mediaFilter.rawValue), \(settings.order.rawValue), \(place == .own),
                           t, t + \(lifetime) * interval '1 second', t + \(2 * lifetime) * interval '1 second', \(preselected)
                    FROM (SELECT COALESCE(\(time)::timestamptz, now()) AS t) AS created
                    """)
                return try await PostgresSessionRecord.read(id, at: time, in: session)
            }
        }
        guard let created else { throw SessionStoreFailure(reason: "the new session was not read back") }
        return created.session
    }

    public func session(_ id: String) async throws -> PickerSession? {
        let time = clock.time
        let found = try await run { try await database.withSession { try await PostgresSessionRecord.read(id, at: time, in: $0) } }
        if found == nil { watch.ended(id) }
        return found?.session
    }

    public func pickerSession(_ id: String, token: String) async throws -> PickerSession? {
        guard let session = try await session(id), SecretToken.matches(token, session.pickerToken) else { return nil }
        return session
    }

    public func hasExpired(_ id: String, token: String) async throws -> Bool {
        let time = clock.time
        let expiredToken = try await run {
            try await database.withSession { session in
                try await session.value("""
                    SELECT picker_token FROM picker_session
                    WHERE id = \(id) AND expire_time <= COALESCE(\(time)::timestamptz, now()) AND forget_time > COALESCE(\(time)::timestamptz, now())
                    """, as: String.self)
            }
        }
        guard let expiredToken else { return false }
        watch.ended(id)
        return SecretToken.matches(token, expiredToken)
    }

    public func isOwn(_ id: String) async throws -> Bool {
        let time = clock.time
        return try await run {
            try await database.withSession { session in
                try await session.value("SELECT own FROM picker_session WHERE id = \(id) AND expire_time > COALESCE(\(time)::timestamptz, now())",
                                        as: Bool.self)
            }
        } ?? false
    }

    @discardableResult
    public func delete(_ id: String) async throws -> Bool {
        let time = clock.time
        let deleted = try await run {
            try await database.transaction { session in
                let deleted = try await session.value("""
                    DELETE FROM picker_session WHERE id = \(id) AND expire_time > COALESCE(\(time)::timestamptz, now()) RETURNING id
                    """, as: String.self)
                if deleted != nil {
                    try await session.execute("SELECT pg_notify(\(PostgresSessionSchema.sessionsChannel), \(id + " " + PostgresSessionWatch.ended))")
                }
                return deleted != nil
            }
        }
        if deleted { watch.ended(id) }
        return deleted
    }

    public func updates(of id: String) async throws -> AsyncStream<PickerSession> {
        try await watch.updates(of: id, reading: self)
    }

    /// The live session `id` with its version, read on any connection.
    func record(_ id: String) async throws -> PostgresSessionRecord? {
        let time = clock.time
        return try await run { try await database.withSession { try await PostgresSessionRecord.read(id, at: time, in: $0) } }
    }

    public func recordBaseURLExpiry(_ expiry: Int64, session id: String) async throws {
        let time = clock.time
        try await run {
            try await database.withSession { session in
                try await session.execute("""
                    UPDATE picker_session SET base_url_expiry = GREATEST(COALESCE(base_url_expiry, \(expiry)), \(expiry))
                    WHERE id = \(id) AND expire_time > COALESCE(\(time)::timestamptz, now())
                    """)
            }
        }
    }

    public func honoursBaseURLExpiry(_ expiry: Int64, session id: String) async throws -> Bool {
        let time = clock.time
        return try await run {
            try await database.withSession { session in
                try await session.value("""
                    SELECT \(expiry) <= base_url_expiry AND \(expiry) > extract(epoch FROM COALESCE(\(time)::timestamptz, now()))
                    FROM picker_session WHERE id = \(id) AND expire_time > COALESCE(\(time)::timestamptz, now())
                    """, as: Bool.self)
            }
        } ?? false
    }
}
