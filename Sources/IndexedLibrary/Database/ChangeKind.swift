import AssetsKit
import Foundation
import GRDB

/// What a row of the `change` table records. A row without a collection is a change of the
/// asset itself; a row with one is a change of that collection's membership.
enum ChangeKind: String, DatabaseValueConvertible, Sendable {
    case inserted
    case removed
    case changed
    /// The collection itself was created, renamed or deleted.
    case collection
}

extension Database {
    /// Appends a row to the change history; its token is the new latest token.
    func recordChange(_ kind: ChangeKind, asset: UUID?, collection: CollectionIdentifier? = nil) throws {
        try cachedStatement(sql: "INSERT INTO change (assetUUID, collectionId, kind) VALUES (?, ?, ?)")
            .execute(arguments: [asset, collection?.rawValue, kind])
    }
}
