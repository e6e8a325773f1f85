import PostgresNIO
import Synchronization

/// The statements running on a pool's connections, each with the instant it is due by
/// (``PostgresPool/statementDeadline``): twice a second, ``watch()`` closes the connection of
/// every one past it, which fails the statement (and the pool makes another connection).
///
/// One watching task per pool rather than a timer per statement: setting and cancelling a timer
/// on the connection's event loop from the statement's task wakes that loop twice a statement;
/// here a statement costs two short locked dictionary steps.
final class StatementWatch: Sendable {
    private struct Running {
        let connection: PostgresConnection
        let due: ContinuousClock.Instant
        var expired = false
    }

    private struct State {
        var next: UInt64 = 0
        var running: [UInt64: Running] = [:]
    }

    private let state = Mutex(State())

    /// How often ``watch()`` looks: a statement is given up at most this long past its deadline.
    static let interval: Duration = .milliseconds(500)

    /// Records a statement starting on `connection`, due within `deadline`; its ticket for ``end(_:)``.
    func begin(on connection: PostgresConnection, deadline: Duration) -> UInt64 {
        let due = ContinuousClock.now + deadline
        return state.withLock { state in
            state.next += 1
            state.running[state.next] = Running(connection: connection, due: due)
            return state.next
        }
    }

    /// Records the statement of `ticket` ended; whether it was given up (its connection closed).
    func end(_ ticket: UInt64) -> Bool {
        state.withLock { $0.running.removeValue(forKey: ticket)?.expired ?? false }
    }

    /// Closes the connection of every statement due before `now` and not given up yet.
    func closeOverdue(at now: ContinuousClock.Instant) {
        let overdue = state.withLock { state in
            var overdue: [PostgresConnection] = []
            for (ticket, statement) in state.running where !statement.expired && statement.due < now {
                state.running[ticket]?.expired = true
                overdue.append(statement.connection)
            }
            return overdue
        }
        for connection in overdue { connection.close().whenComplete { _ in } }
    }

    /// Looks for overdue statements every ``interval`` until cancelled.
    func watch() async {
        while (try? await Task.sleep(for: Self.interval)) != nil {
            closeOverdue(at: .now)
        }
    }
}
