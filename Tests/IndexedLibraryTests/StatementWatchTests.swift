import Foundation
@testable import PostgresIndex
import PostgresNIO
import PostgresTestSupport
import Testing

/// A statement past its deadline is given up: its connection closed, the statement failed as the
/// database being unavailable for now. The watch is asked at an instant past the deadline
/// instead of waiting for it.
@Suite struct StatementWatchTests {
    @Test func aStatementPastItsDeadlineIsGivenUpAndTheNextOneRunsOnAnotherConnection() async throws {
        let address = try await PostgresServer.shared().makeDatabase()
        let pool = try await PostgresPool(address: address)
        let watch = StatementWatch()
        try await pool.withSession(statementDeadline: nil) { session in
            let ticket = watch.begin(on: session.connection, deadline: .seconds(30))
            async let sleeping: Void = session.execute("SELECT pg_sleep(60)")
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
