/// The answer to a lookup by identifiers: the assets found, in the order asked, and the
/// identifiers that name nothing (deleted since, or never there).
public struct AssetLookup: Sendable, Hashable {
    public var found: [Asset]
    public var missing: [AssetIdentifier]

    public init(found: [Asset], missing: [AssetIdentifier]) {
        self.found = found
        self.missing = missing
    }
}
