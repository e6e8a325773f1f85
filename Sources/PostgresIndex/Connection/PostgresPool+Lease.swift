import Foundation
import PostgresNIO

extension PostgresPool {
    /// How long a statement may wait for a connection once the database has been seen failing
    /// (a connection refused or closed under a statement): while it restarts, postgres-nio's
    /// pool keeps a request waiting until its circuit breaker trips (a minute), so past this a
    /// request is answered as the database being unavailable for now (503 with `Retry-After`)
    /// rather than hanging.
    static let failingLeaseDeadline: Duration = .seconds(2)

    /// Runs `body` on a connection of the pool. With a `deadline` (the one its statements get:
    /// ``statementDeadline``, or ``failingLeaseDeadline`` while the database is failing), waiting
    /// for the connection is bounded by it too, and past it throws
    /// ``PostgresIndexError/unavailable(_:message:)``: a request queued for a connection behind
    /// statements that a stalled database never answers, or for a new connection the database
    /// never lets in, would otherwise wait as long as it stalls (an outside attack: 150 s for the
    /// forty requests beyond the pool's free connections).
    ///
    /// The pool lends the connection to a child task, which hands it over and holds it until
    /// `body` is done; `body` itself runs here, so it needs not be `Sendable`. A lease that missed
    /// its deadline is cancelled (the pool drops the request). Without a deadline (migrations),
    /// the pool lends it here.
    func leased<Result: Sendable>(within deadline: Duration?, _ body: (PostgresConnection) async throws -> Result) async throws -> Result {
        guard let deadline else { return try await client.withConnection(body) }
        let (connections, handOut) = AsyncThrowingStream.makeStream(of: PostgresConnection.self)
        let (released, release) = AsyncStream.makeStream(of: Never.self)
        let client = self.client, address = self.address
        let timer = Task {
            try await Task.sleep(for: deadline)
            handOut.finish(throwing: PostgresIndexError.unavailable(address, message: "no connection within \(deadline)"))
        }
        defer { timer.cancel() }
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    try await client.withConnection { connection in
                        handOut.yield(connection)
                        for await _ in released {}
                    }
                    handOut.finish()
                } catch {
                    handOut.finish(throwing: error)
                }
            }
            defer { release.finish() }
            var lent = connections.makeAsyncIterator()
            do {
                guard let connection = try await lent.next() else { throw CancellationError() }
                timer.cancel()
                return try await body(connection)
            } catch {
                release.finish()
                group.cancelAll()
                throw error
            }
        }
    }
}
