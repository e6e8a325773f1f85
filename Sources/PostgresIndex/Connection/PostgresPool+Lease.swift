import Foundation
import PostgresNIO

extension PostgresPool {
    /// How long a statement may wait for a connection once the database has been seen failing
    /// (a connection refused or closed under a statement): while it restarts, postgres-nio's
    /// pool keeps a request waiting until its circuit breaker trips (a minute), so past this a
    /// request is answered as the database being unavailable for now (503 with `Retry-After`)
    /// rather than hanging. A busy but healthy database gets no deadline: its requests wait
    /// their turn, as the pool makes them.
    static let failingLeaseDeadline: Duration = .seconds(2)

    /// Runs `body` on a connection of the pool; while the database is failing
    /// (``isFailing``), throws ``PostgresIndexError/unavailable(_:message:)`` when none is lent
    /// within ``failingLeaseDeadline``.
    ///
    /// With a deadline the pool lends the connection to a child task, which hands it over and
    /// holds it until `body` is done; `body` itself runs here, so it needs not be `Sendable`. A
    /// lease that missed its deadline is cancelled (the pool drops the request).
    func leased<Result: Sendable>(_ body: (PostgresConnection) async throws -> Result) async throws -> Result {
        guard isFailing else { return try await client.withConnection(body) }
        let (connections, handOut) = AsyncThrowingStream.makeStream(of: PostgresConnection.self)
        let (released, release) = AsyncStream.makeStream(of: Never.self)
        let client = self.client, address = self.address
        let deadline = Task {
            try await Task.sleep(for: Self.failingLeaseDeadline)
            handOut.finish(throwing: PostgresIndexError.unavailable(address, message: "no connection within \(Self.failingLeaseDeadline)"))
        }
        defer { deadline.cancel() }
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
                deadline.cancel()
                return try await body(connection)
            } catch {
                release.finish()
                group.cancelAll()
                throw error
            }
        }
    }
}
