import Foundation
import PickerSessions
import PostgresIndex
import PostgresSessions
import PostgresTestSupport
import Testing
import TestSupport

/// The sign-in stores the shared suite runs on.
enum SignInStoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case memory
    case postgresql

    var testDescription: String { rawValue }

    /// A new, empty store of this kind whose clock is `clock`, and for PostgreSQL its database
    /// (to read the table as anyone with access to it would).
    func make(clock: TestClock) async throws -> (store: any SignInStoring, table: PostgresPool?) {
        switch self {
        case .memory:
            return (MemorySignInStore(now: { clock.now }), nil)
        case .postgresql:
            let address = try await PostgresServer.shared().makeDatabase()
            let store = try await PostgresSignInStore.open(at: address, now: { clock.now })
            return (store, try await PostgresPool(address: address))
        }
    }
}
