/// A group of assets: the camera roll, a smart album, a user album, a folder of albums, or a
/// directory of the library's file tree.
public struct AssetCollection: Sendable, Hashable, Identifiable, Codable {
    /// The collection's identifier, which the library accepts back.
    public let id: CollectionIdentifier
    /// The title a person sees.
    public var title: String
    /// What sort of collection it is.
    public var kind: CollectionKind
    /// Which smart album it is, for the camera roll and the smart albums; `nil` for the others.
    public var smartKind: SmartAlbumKind?
    /// A cheap count that may be stale or missing (`nil`: unknown), as AssetsLibrary's and
    /// PhotoKit's estimates are. Ask the library for the exact count.
    public var estimatedAssetCount: Int?
    /// The folder that holds this collection, if any.
    public var parentID: CollectionIdentifier?

    /// A collection with every property given.
    public init(id: CollectionIdentifier, title: String, kind: CollectionKind, smartKind: SmartAlbumKind? = nil,
                estimatedAssetCount: Int? = nil, parentID: CollectionIdentifier? = nil) {
        self.id = id
        self.title = title
        self.kind = kind
        self.smartKind = smartKind
        self.estimatedAssetCount = estimatedAssetCount
        self.parentID = parentID
    }

    /// Whether it holds what the person deleted (Recently Deleted): a picker neither lists it
    /// nor offers what is in it.
    public var isTrash: Bool { smartKind == .recentlyDeleted }
}

/// What sort of collection a collection is.
public enum CollectionKind: String, Sendable, Hashable, Codable {
    /// Every asset of the library: the collection a picker opens on, always listed first.
    case cameraRoll
    /// A collection the library keeps by a rule (Favorites, Videos, Recently Added, ...).
    case smartAlbum
    /// A user album with its own ordered membership.
    case album
    /// A folder holding albums and folders (PhotoKit's collection list).
    case folder
    /// A directory of the library's file tree, holding the media files directly in it.
    case directory
}
