import Foundation

/// One change to a library. ``LibraryChanging/performChanges(_:)`` applies a list of them in one
/// transaction: all or none.
public enum ChangeRequest: Sendable, Hashable {
    /// Copies a file into the library's own folder and creates an asset for it; optionally
    /// adds it to an album. The new identifier comes back in ``ChangeResult/insertedAssets``.
    case importFile(URL, intoAlbum: CollectionIdentifier? = nil)
    /// Writes bytes into the library's own folder as `filename` and creates an asset.
    case importData(Data, filename: String, intoAlbum: CollectionIdentifier? = nil)
    /// Creates an empty album, at the top or in a folder.
    case createAlbum(title: String, inFolder: CollectionIdentifier? = nil)
    /// Creates an empty folder, at the top or in another folder.
    case createFolder(title: String, inFolder: CollectionIdentifier? = nil)
    /// Gives an album or folder a new title.
    case renameCollection(CollectionIdentifier, title: String)
    /// Deletes an album or folder; the assets stay in the library.
    case deleteCollection(CollectionIdentifier)
    /// Adds assets to the end of an album, in the order given.
    case addAssets([AssetIdentifier], toAlbum: CollectionIdentifier)
    /// Removes assets from an album; they stay in the library.
    case removeAssets([AssetIdentifier], fromAlbum: CollectionIdentifier)
    /// Gives an album's members this order (members not named keep their place after them).
    case reorderAssets([AssetIdentifier], inAlbum: CollectionIdentifier)
    /// Marks assets as favourites, or unmarks them.
    case setFavorite([AssetIdentifier], Bool)
    /// Hides assets, or shows them again.
    case setHidden([AssetIdentifier], Bool)
    /// Moves assets to Recently Deleted, from where they can be restored.
    case delete([AssetIdentifier])
    /// Brings assets back from Recently Deleted.
    case restore([AssetIdentifier])
    /// Removes assets from Recently Deleted for good (an imported original is removed too).
    case purge([AssetIdentifier])
}

/// What a successful ``LibraryChanging/performChanges(_:)`` made.
public struct ChangeResult: Sendable, Hashable {
    /// The assets created by imports, in request order.
    public var insertedAssets: [AssetIdentifier]
    /// The collections created, in request order.
    public var insertedCollections: [CollectionIdentifier]
    /// The library's change token after the transaction.
    public var token: ChangeToken

    /// A result with what was created and the token after it.
    public init(insertedAssets: [AssetIdentifier], insertedCollections: [CollectionIdentifier], token: ChangeToken) {
        self.insertedAssets = insertedAssets
        self.insertedCollections = insertedCollections
        self.token = token
    }
}
