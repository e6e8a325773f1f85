import AssetsKit
import Foundation
import GRDB

extension ChangeKind: DatabaseValueConvertible {}

extension Database {
    /// Appends a row to the change history; its token is the new latest token.
    func recordChange(_ kind: ChangeKind, asset: UUID?, collection: CollectionIdentifier? = nil) throws {
        try cachedStatement(sql: "INSERT INTO change (assetUUID, collectionId, kind) VALUES (?, ?, ?)")
            .execute(arguments: [asset, collection?.rawValue, kind])
    }
}
