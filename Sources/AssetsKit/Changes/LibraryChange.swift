/// A point in a library's history. Tokens survive restarts: ask what changed since one with
/// ``LibraryChangeHistory/changes(since:)``.
public struct ChangeToken: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The position in the history: a later change has a larger value.
    public let value: Int64

    /// The token at position `value`.
    public init(_ value: Int64) {
        self.value = value
    }

    /// Parses the token's text form.
    public init?(string: String) {
        guard let value = Int64(string), value >= 0 else { return nil }
        self.value = value
    }

    /// The token's text form, which ``init(string:)`` parses.
    public var description: String { String(value) }

    /// Whether `lhs` is earlier in the history than `rhs`.
    public static func < (lhs: ChangeToken, rhs: ChangeToken) -> Bool { lhs.value < rhs.value }
}

/// What changed in a library between two tokens, for live views.
public struct LibraryChange: Sendable, Hashable {
    /// The token after these changes.
    public var token: ChangeToken
    /// Assets added to the library.
    public var insertedAssets: Set<AssetIdentifier>
    /// Assets removed (deleted, purged or gone from disk).
    public var removedAssets: Set<AssetIdentifier>
    /// Assets whose metadata or file changed.
    public var changedAssets: Set<AssetIdentifier>
    /// Per collection, what its membership did.
    public var collections: [CollectionIdentifier: CollectionChange]

    /// A change up to `token`; nothing changed unless said.
    public init(token: ChangeToken, insertedAssets: Set<AssetIdentifier> = [], removedAssets: Set<AssetIdentifier> = [],
                changedAssets: Set<AssetIdentifier> = [], collections: [CollectionIdentifier: CollectionChange] = [:]) {
        self.token = token
        self.insertedAssets = insertedAssets
        self.removedAssets = removedAssets
        self.changedAssets = changedAssets
        self.collections = collections
    }

    /// Whether nothing changed.
    public var isEmpty: Bool {
        insertedAssets.isEmpty && removedAssets.isEmpty && changedAssets.isEmpty && collections.isEmpty
    }
}

/// How one collection changed.
public struct CollectionChange: Sendable, Hashable {
    /// Assets that became members.
    public var inserted: Set<AssetIdentifier>
    /// Assets that are no longer members.
    public var removed: Set<AssetIdentifier>
    /// Members whose metadata or file changed.
    public var changed: Set<AssetIdentifier>
    /// The collection itself was created, renamed or deleted.
    public var collectionChanged: Bool

    /// A collection's change; nothing changed unless said.
    public init(inserted: Set<AssetIdentifier> = [], removed: Set<AssetIdentifier> = [],
                changed: Set<AssetIdentifier> = [], collectionChanged: Bool = false) {
        self.inserted = inserted
        self.removed = removed
        self.changed = changed
        self.collectionChanged = collectionChanged
    }
}
