import Foundation
import Logging
import PostgresNIO
import Synchronization

/// A PostgreSQL database: a pool of connections (postgres-nio's `PostgresClient`, run by a task
/// of its own for as long as this value lives) and the three ways the stores use it — a
/// statement on any connection, a read-only snapshot, and a write transaction.
///
/// Write transactions take one advisory lock, so they run one at a time, as SQLite's do: the
/// change history's tokens are then handed out in commit order, and a reader that has seen a
/// token has seen every change before it. A process keeps one pool per address
/// (``shared(at:)``): a server's index, picker sessions and sign-ins share its connections and
/// its one notion of the database failing (``isFailing``), so that a database seen gone by any
/// of them (its listening connections first) bounds the waits of all.
package final class PostgresPool: Sendable {
    /// Where the database is.
    package let address: PostgresAddress
    let client: PostgresClient
    let logger: Logger
    private let running: Task<Void, Never>
    /// The statements running with a deadline, and the task that gives up those past it.
    private let statements = StatementWatch()
    private let watching: Task<Void, Never>
    /// See ``isFailing``.
    private let failing = Mutex(false)

    /// The key of the advisory lock every write transaction takes.
    static let writeLock: Int64 = 0x4153_5345_5453_5049 // "ASSETSPI"

    /// The pools of this process by address, while something holds them.
    private static let open = Mutex<[PostgresAddress: OpenPool]>([:])

    /// A pool held weakly by ``open``.
    private struct OpenPool: Sendable {
        weak var pool: PostgresPool?
    }

    /// The pool of this process for `address`: the one open already, else a new one
    /// (``init(address:)``).
    /// - Throws: ``PostgresIndexError``.
    package static func shared(at address: PostgresAddress) async throws -> PostgresPool {
        if let pool = open.withLock({ $0[address]?.pool }) { return pool }
        let pool = try await PostgresPool(address: address)
        return open.withLock { open in
            if let earlier = open[address]?.pool { return earlier }
            open = open.filter { $0.value.pool != nil }
            open[address] = OpenPool(pool: pool)
            return pool
        }
    }

    /// Connects to the database at `address`, checking first that one connection can be made,
    /// so a wrong address, password or database fails here with one clear line.
    /// - Throws: ``PostgresIndexError``.
    package init(address: PostgresAddress) async throws {
        let logger = Logger(label: "assets-picker.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
        do {
            let connection = try await PostgresConnection.connect(configuration: address.connectionConfiguration, id: 0, logger: logger)
            try await connection.close()
        } catch {
            throw PostgresIndexError.from(error, at: address)
        }
        self.address = address
        self.logger = logger
        let client = PostgresClient(configuration: address.clientConfiguration, backgroundLogger: logger)
        self.client = client
        running = Task { await client.run() }
        watching = Task { [statements] in await statements.watch() }
    }

    deinit {
        running.cancel()
        watching.cancel()
    }

    /// How long a statement may go unanswered before its connection is closed and the statement
    /// fails as the database being unavailable for now (503 with `Retry-After`): a database
    /// stalled rather than gone — a frozen server, a network that drops instead of refusing —
    /// answers nothing and closes nothing, and held each request waiting on it for minutes (an
    /// outside attack: 238 s). Once the database has been seen failing, statements wait
    /// ``failingLeaseDeadline`` at most until one succeeds. Migrations and bulk loads, which
    /// may rightly take longer, pass `nil`.
    package static let statementDeadline: Duration = .seconds(15)

    /// Runs `body` on one connection, outside any transaction; each of its statements is
    /// answered within `statementDeadline` (``statementDeadline`` by default; `nil`: no bound)
    /// or fails with ``PostgresIndexError/unavailable(_:message:)``.
    package func withSession<Result: Sendable>(statementDeadline: Duration? = PostgresPool.statementDeadline,
                                               _ body: (PostgresSession) async throws -> Result) async throws -> Result {
        let deadline = statementDeadline.map { isFailing ? min($0, Self.failingLeaseDeadline) : $0 }
        do {
            let result = try await leased(within: deadline) { connection in
                try await body(PostgresSession(connection: connection, logger: logger, address: address,
                                               statementDeadline: deadline.map { ($0, statements) }))
            }
            failing.withLock { $0 = false }
            return result
        } catch {
            let error = mapped(error)
            if let failure = error as? PostgresIndexError, failure.retryAfterSeconds != nil { failing.withLock { $0 = true } }
            throw error
        }
    }

    /// Whether the last statement found the database unreachable or unavailable (and none has
    /// succeeded since): new statements then wait at most ``failingLeaseDeadline`` for a
    /// connection and for their answer.
    var isFailing: Bool { failing.withLock { $0 } }

    /// Runs `body` in a read-only transaction that sees one snapshot of the database.
    package func read<Result: Sendable>(_ body: (PostgresSession) async throws -> Result) async throws -> Result {
        try await transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
    }

    /// Runs `body` in a write transaction, after every other write has committed or rolled
    /// back (the advisory lock). `body`'s error rolls it back and is rethrown as it was.
    /// `statementDeadline` bounds each statement as ``withSession(statementDeadline:_:)``'s does.
    package func write<Result: Sendable>(statementDeadline: Duration? = PostgresPool.statementDeadline,
                                         _ body: (PostgresSession) async throws -> Result) async throws -> Result {
        try await transaction("BEGIN", statementDeadline: statementDeadline, { session in
            try await session.execute("SELECT pg_advisory_xact_lock(\(Self.writeLock))")
            return try await body(session)
        })
    }

    /// Runs `body` in a read-committed transaction without the write lock: for changes that lock
    /// the rows they change (`SELECT … FOR UPDATE`) and so take turns only with changes to the
    /// same rows, such as one picker session's picks. `body`'s error rolls it back and is rethrown.
    package func transaction<Result: Sendable>(statementDeadline: Duration? = PostgresPool.statementDeadline,
                                               _ body: (PostgresSession) async throws -> Result) async throws -> Result {
        try await transaction("BEGIN", statementDeadline: statementDeadline, body)
    }

    private func transaction<Result: Sendable>(_ begin: String, statementDeadline: Duration? = PostgresPool.statementDeadline,
                                               _ body: (PostgresSession) async throws -> Result) async throws -> Result {
        try await withSession(statementDeadline: statementDeadline) { session in
            try await session.execute(PostgresQuery(unsafeSQL: begin))
            let result: Result
            do {
                result = try await body(session)
            } catch {
                try? await session.execute("ROLLBACK")
                throw error
            }
            try await session.execute("COMMIT")
            return result
        }
    }

    /// A driver's error as a ``PostgresIndexError`` naming this database; other errors (the
    /// library's own, such as a refused change) as they are.
    private func mapped(_ error: any Error) -> any Error {
        error is PSQLError ? PostgresIndexError.from(error, at: address) : error
    }
}

/// One connection lent by a ``PostgresPool``, with the forms of statement the stores use.
package struct PostgresSession {
    /// The connection itself, for what the forms below do not cover (`LISTEN`).
    package let connection: PostgresConnection
    let logger: Logger
    /// The database's address, for errors.
    let address: PostgresAddress
    /// How long each statement may go unanswered (``PostgresPool/statementDeadline``) and the
    /// pool's watch that gives it up past that, or `nil`.
    let statementDeadline: (Duration, StatementWatch)?

    /// Runs a statement, its rows (if any) read and dropped.
    package func execute(_ query: PostgresQuery) async throws {
        try await answered { connection, logger in
            for try await _ in try await connection.query(query, logger: logger) {}
        }
    }

    /// Every row of a statement.
    package func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await answered { connection, logger in try await connection.query(query, logger: logger).collect() }
    }

    /// Runs `statement` on the connection; past ``statementDeadline`` its watch closes the
    /// connection (which fails the statement, and the pool makes another) and the statement fails
    /// with ``PostgresIndexError/unavailable(_:message:)``. A statement that ends at that moment
    /// with its answer keeps it.
    private func answered<Result>(_ statement: (PostgresConnection, Logger) async throws -> Result) async throws -> Result {
        guard let (deadline, watch) = statementDeadline else { return try await statement(connection, logger) }
        let ticket = watch.begin(on: connection, deadline: deadline)
        do {
            let result = try await statement(connection, logger)
            _ = watch.end(ticket)
            return result
        } catch {
            if watch.end(ticket) { throw PostgresIndexError.unavailable(address, message: "no answer within \(deadline)") }
            throw error
        }
    }

    /// The first column of every row.
    package func values<Value: PostgresDecodable>(_ query: PostgresQuery, as type: Value.Type = Value.self) async throws -> [Value] {
        try await rows(query).map { try $0.decode(Value.self) }
    }

    /// The first column of the first row, `nil` when there is none.
    package func value<Value: PostgresDecodable>(_ query: PostgresQuery, as type: Value.Type = Value.self) async throws -> Value?
        where Value._DecodableType == Value {
        try await values(query, as: Value?.self).first ?? nil
    }
}
