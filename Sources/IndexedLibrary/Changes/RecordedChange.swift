import AssetsKit
import Foundation

/// What a row of the `change` table records. A row without a collection is a change of the
/// asset itself; a row with one is a change of that collection's membership.
package enum ChangeKind: String, Sendable {
    case inserted
    case removed
    case changed
    /// The collection itself was created, renamed or deleted.
    case collection
}

/// One row of the change history, as either store reads it back.
package struct RecordedChange: Sendable {
    /// The row's token: its place in the history.
    package var token: Int64
    /// The asset changed, or `nil` for a change of the collection itself.
    package var asset: UUID?
    /// The collection whose membership changed, or `nil` for a change of the asset itself.
    package var collection: CollectionIdentifier?
    /// What happened.
    package var kind: ChangeKind

    package init(token: Int64, asset: UUID?, collection: CollectionIdentifier?, kind: ChangeKind) {
        self.token = token
        self.asset = asset
        self.collection = collection
        self.kind = kind
    }
}

extension LibraryChange {
    /// Folds the next recorded change (in token order) into the changes before it: an asset
    /// inserted and then removed is in neither set, one removed and inserted again is changed.
    package mutating func fold(_ recorded: RecordedChange) {
        token = ChangeToken(recorded.token)
        let asset = recorded.asset.map { AssetIdentifier.local(LocalIdentifier(uuid: $0)) }
        if let collection = recorded.collection {
            var membership = collections[collection] ?? CollectionChange()
            if let asset {
                Merge.apply(recorded.kind, asset, inserted: &membership.inserted, removed: &membership.removed, changed: &membership.changed)
            } else {
                membership.collectionChanged = true
            }
            collections[collection] = membership
        } else if let asset {
            Merge.apply(recorded.kind, asset, inserted: &insertedAssets, removed: &removedAssets, changed: &changedAssets)
        }
    }
}

/// How one recorded change folds into the changes before it.
private enum Merge {
    static func apply(_ kind: ChangeKind, _ asset: AssetIdentifier, inserted: inout Set<AssetIdentifier>,
                      removed: inout Set<AssetIdentifier>, changed: inout Set<AssetIdentifier>) {
        switch kind {
        case .inserted:
            if removed.remove(asset) != nil { changed.insert(asset) } else { inserted.insert(asset) }
        case .removed:
            changed.remove(asset)
            if inserted.remove(asset) == nil { removed.insert(asset) }
        case .changed:
            if !inserted.contains(asset) { changed.insert(asset) }
        case .collection:
            break
        }
    }
}
