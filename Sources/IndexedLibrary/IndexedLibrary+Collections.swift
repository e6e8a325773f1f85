import AssetsKit
import Foundation

extension IndexedLibrary {
    /// The library's own name, the title of its top folder as an album: the folder's name, or
    /// the last part of a place elsewhere (a bucket's prefix, else the bucket).
    var libraryName: String {
        let last = rootURL.lastPathComponent
        guard !rootURL.isFileURL, last.isEmpty || last == "/" else { return last }
        return rootURL.host ?? last
    }

    /// The smart albums, All Photos first; then user albums and folders by position; then the
    /// folders of the tree by path, empty ones too, as on the folder backend (the root only
    /// while it holds media files itself). Estimated counts are exact at the time of the call.
    public func collections() async throws -> [AssetCollection] {
        try await index.collections(libraryName: libraryName,
                                    recentlyAddedSince: now().addingTimeInterval(-Self.recentlyAddedInterval))
    }

    /// The album list from a fixed number of index queries, whatever the number of albums and
    /// directories (see `PhotoLibrary.albumSummaries(filter:)`).
    public func albumSummaries(filter: MediaFilter) async throws -> [AlbumSummary] {
        try await index.albumSummaries(libraryName: libraryName, filter: filter,
                                       recentlyAddedSince: now().addingTimeInterval(-Self.recentlyAddedInterval))
    }

    public func cameraRoll() async throws -> AssetCollection {
        SmartAlbum.all.collection(count: try await assetCount(in: SmartAlbum.all.collectionIdentifier, filter: .all))
    }

    public func assetCount(in collection: CollectionIdentifier, filter: MediaFilter) async throws -> Int {
        try await index.assetCount(in: collection, filter: filter, recentlyAddedSince: now().addingTimeInterval(-Self.recentlyAddedInterval))
    }
}
