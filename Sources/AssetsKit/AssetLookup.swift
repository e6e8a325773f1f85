/// The answer to a lookup by identifiers: the assets found, in the order asked, and the
/// identifiers that name nothing (deleted since, or never there).
public struct AssetLookup: Sendable, Hashable {
    /// The assets found, in the order their identifiers were given.
    public var found: [Asset]
    /// The identifiers that name no asset of the library (any more).
    public var missing: [AssetIdentifier]

    /// A lookup result of `found` assets and `missing` identifiers.
    public init(found: [Asset], missing: [AssetIdentifier]) {
        self.found = found
        self.missing = missing
    }
}
