import AssetsKit
import Foundation
import LibraryTree

/// The collection identifiers an indexed library hands out: `smart:all`, `smart:favorites`,
/// `album:<uuid>`, `directory:<uuid>`. Stable across runs and reopenings; the folder library's
/// `camera-roll` and `assets-library://group/?id=<uuid>` are read as All Photos and the folder
/// (``TreeCollection``, `CollectionID+TreeCollection.swift`).
package enum CollectionID: Hashable, Sendable {
    case smart(SmartAlbum)
    /// A user album or folder.
    case album(UUID)
    case directory(UUID)

    package init?(_ identifier: CollectionIdentifier) {
        if let tree = TreeCollection(identifier) {
            self.init(tree)
            return
        }
        let parts = identifier.rawValue.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        switch parts[0] {
        case "smart": guard let smart = SmartAlbum(rawValue: parts[1]) else { return nil }; self = .smart(smart)
        case "album": guard let uuid = UUID(uuidString: parts[1]) else { return nil }; self = .album(uuid)
        case "directory": guard let uuid = UUID(uuidString: parts[1]) else { return nil }; self = .directory(uuid)
        default: return nil
        }
    }

    var identifier: CollectionIdentifier {
        switch self {
        case .smart(let smart): CollectionIdentifier("smart:\(smart.rawValue)")
        case .album(let uuid): Self.album(uuid)
        case .directory(let uuid): Self.directory(uuid)
        }
    }

    package static func album(_ uuid: UUID) -> CollectionIdentifier { CollectionIdentifier("album:\(uuid.uuidString)") }
    package static func directory(_ uuid: UUID) -> CollectionIdentifier { CollectionIdentifier("directory:\(uuid.uuidString)") }
}

/// The collections an indexed library keeps by rule, in the order they are listed.
public enum SmartAlbum: String, Sendable, CaseIterable {
    /// Every asset not hidden or deleted: the camera roll.
    case all
    case favorites
    case videos
    /// Added to the library in the last ``IndexedLibrary/recentlyAddedInterval``.
    case recentlyAdded = "recently-added"
    /// Deleted, restorable.
    case recentlyDeleted = "recently-deleted"

    public var title: String {
        switch self {
        case .all: "All Photos"
        case .favorites: "Favorites"
        case .videos: "Videos"
        case .recentlyAdded: "Recently Added"
        case .recentlyDeleted: "Recently Deleted"
        }
    }

    /// The album's collection identifier.
    public var collectionIdentifier: CollectionIdentifier { CollectionID.smart(self).identifier }

    /// Which smart album it is, in every backend's words.
    public var kind: SmartAlbumKind {
        switch self {
        case .all: .allPhotos
        case .favorites: .favorites
        case .videos: .videos
        case .recentlyAdded: .recentlyAdded
        case .recentlyDeleted: .recentlyDeleted
        }
    }
}

extension SmartAlbum {
    /// The album as a collection holding `count` assets (All Photos is the camera roll).
    package func collection(count: Int) -> AssetCollection {
        AssetCollection(id: collectionIdentifier, title: title, kind: self == .all ? .cameraRoll : .smartAlbum, smartKind: kind,
                        estimatedAssetCount: count)
    }
}
