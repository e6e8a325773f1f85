import Foundation
@testable import PostgresIndex
import PostgresNIO
import PostgresTestSupport
import Testing
import TestSupport

/// A statement past its deadline is given up: its connection closed, the statement failed as the
/// database being unavailable for now. The watch is asked at an instant past the deadline
/// instead of waiting for it, once the statement is seen running in the database.
@Suite struct StatementWatchTests {
    @Test func aStatementPastItsDeadlineIsGivenUpAndTheNextOneRunsOnAnotherConnection() async throws {
        let address = try await PostgresServer.shared().makeDatabase()
        let pool = try await PostgresPool(address: address)
        let watch = StatementWatch()
        try await pool.withSession(statementDeadline: nil) { session in
            let ticket = watch.begin(on: session.connection, deadline: .seconds(30))
            async let sleeping: Void = session.execute("SELECT pg_sleep(60)")
            // Closing the connection before the statement is sent is another case: wait until
            // the database runs it (asked on another connection).
            try await HangGuard.waitUntil("the statement runs", limit: .seconds(60)) {
                try await pool.withSession(statementDeadline: nil) { other in
                    try await other.value("SELECT count(*) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(60)' AND state = 'active'",
                                          as: Int.self) == 1
                }
            }
            // Only a statement past its due instant is given up.
            watch.closeOverdue(at: .now + .seconds(1))
            #expect(!session.connection.isClosed)
            watch.closeOverdue(at: .now + .seconds(31))
            let failed: Bool
            do { try await sleeping; failed = false } catch { failed = true }
            #expect(failed, "the statement was given up")
            #expect(watch.end(ticket))
        }
        #expect(try await pool.withSession { try await $0.value("SELECT 1", as: Int.self) } == 1)
    }
}
