/// A draft of picks as loaded now: see ``LibraryDrafts/loadDraft(named:)``.
public struct DraftLoad: Sendable, Hashable {
    /// The draft's name.
    public var name: String
    /// The picked assets still in the library, in pick order, named by local identifiers.
    public var assets: [Asset]
    /// The legacy URLs of the draft that were migrated to local identifiers, in pick order.
    public var migrated: [IdentifierMigration]
    /// The picks whose assets are gone (deleted, purged or removed from disk since), as saved.
    public var dropped: [AssetIdentifier]

    /// A loaded draft.
    public init(name: String, assets: [Asset], migrated: [IdentifierMigration], dropped: [AssetIdentifier]) {
        self.name = name
        self.assets = assets
        self.migrated = migrated
        self.dropped = dropped
    }
}

/// A legacy asset URL and the local identifier it names today.
public struct IdentifierMigration: Sendable, Hashable {
    /// The identifier as the draft saved it.
    public var legacy: LegacyAssetURL
    /// The identifier the asset has now.
    public var local: LocalIdentifier

    /// A migration of `legacy` to `local`.
    public init(legacy: LegacyAssetURL, local: LocalIdentifier) {
        self.legacy = legacy
        self.local = local
    }
}

/// What can go wrong with drafts.
public enum DraftError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No draft has this name.
    case notFound(String)
    /// A draft needs a name that is not blank.
    case invalidName(String)

    /// The error in one line, naming the draft.
    public var description: String {
        switch self {
        case .notFound(let name): "no draft named \"\(name)\" in this library"
        case .invalidName(let name): "\"\(name)\" cannot name a draft: the name must not be blank"
        }
    }
}
