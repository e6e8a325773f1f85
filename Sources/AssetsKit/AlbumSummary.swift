/// One row of a library's album list: a collection with its exact count under a media filter
/// and the asset its poster shows.
public struct AlbumSummary: Sendable, Hashable {
    /// The collection.
    public var collection: AssetCollection
    /// The exact number of its assets that pass the filter the list was made for.
    public var count: Int
    /// Its key asset under that filter (the oldest, as ``PhotoLibrary/keyAsset(of:filter:)``
    /// answers); `nil` when nothing passes.
    public var keyAsset: Asset?

    /// A row of the album list.
    public init(collection: AssetCollection, count: Int, keyAsset: Asset?) {
        self.collection = collection
        self.count = count
        self.keyAsset = keyAsset
    }
}
