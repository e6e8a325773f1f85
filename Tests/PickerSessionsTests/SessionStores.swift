import AssetsKit
import Foundation
import PickerSessions
import PostgresIndex
import PostgresSessions
import PostgresTestSupport
import TestSupport

/// The session stores the shared tests run against: the same expectations, each store.
enum SessionStoreKind: String, CaseIterable {
    case memory
    case postgres

    /// A new, empty store of this kind on `clock`; a PostgreSQL one in a database of its own.
    func make(lifetime: Duration = .seconds(60), capacity: Int = 10_000, ownCapacity: Int = 20,
              clock: TestClock = TestClock()) async throws -> any SessionStoring {
        switch self {
        case .memory:
            return MemorySessionStore(lifetime: lifetime, capacity: capacity, ownCapacity: ownCapacity, now: { clock.now })
        case .postgres:
            return try await PostgresSessionStore(database: PostgresPool(address: PostgresServer.shared().makeDatabase()), lifetime: lifetime,
                                           capacity: capacity, ownCapacity: ownCapacity, clock: .given { clock.now })
        }
    }
}

/// A picked asset made up for a test: taken on `day` (days since 1970), of `type`, `bytes` long.
func pickedAsset(_ day: Int, _ type: MediaType = .photo, bytes: Int64 = 1_000) -> PickedAsset {
    PickedAsset(uuid: UUID(), mediaType: type, byteSize: bytes, creationDate: Date(timeIntervalSince1970: Double(day) * 86_400),
                filename: "IMG_\(day).JPG")
}
