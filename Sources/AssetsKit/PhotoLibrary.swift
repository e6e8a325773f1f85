import Foundation

/// A photo library: the one protocol every backend implements.
///
/// `FolderLibrary` (a folder tree enumerated live, the AssetsLibrary role) and the indexed
/// library (the PhotoKit role) both answer it, so a picker and a client work the same over
/// either. Every operation of the original picker manager is here, in async Swift.
public protocol PhotoLibrary: Sendable {
    /// A short name of the backend (`folder`, `indexed`).
    var backendName: String { get }
    /// The folder the library shows.
    var rootURL: URL { get }
    /// Whether ``performChanges(_:)`` can work on this library.
    var isWritable: Bool { get }

    // MARK: Authorization

    /// The access this process has, without trying anything new.
    func authorizationStatus() async -> AuthorizationStatus
    /// Tries the access (reads the root; checks it can be written) and reports the result.
    func requestAuthorization() async -> AuthorizationStatus

    // MARK: Collections

    /// Every collection: the camera roll first, then smart albums, then albums and folders.
    func collections() async throws -> [AssetCollection]
    /// The collection a picker opens on: every asset of the library.
    func cameraRoll() async throws -> AssetCollection
    /// The exact number of assets in a collection that pass `filter`.
    func assetCount(in collection: CollectionIdentifier, filter: MediaFilter) async throws -> Int

    // MARK: Assets

    /// The assets of a collection, filtered, sorted by creation date, limited; lazily loaded.
    func assets(in collection: CollectionIdentifier, options: FetchOptions) async throws -> FetchResult
    /// The assets with these identifiers (either form), in the order given, and those missing.
    func assets(withIdentifiers identifiers: [AssetIdentifier]) async throws -> AssetLookup

    // MARK: Images

    /// Renders an asset for a target size.
    ///
    /// With ``DeliveryMode/opportunistic`` the stream may first yield degraded images; it
    /// always ends with exactly one final (non-degraded) image, or an error. The other
    /// delivery modes yield one image. Cancelling the consuming task stops the work.
    func image(for asset: Asset, request: ImageRequest) -> AsyncThrowingStream<ImageResult, Error>

    /// The original file of a photo or video.
    func originalFile(for asset: Asset) async throws -> OriginalResource

    // MARK: Prefetching

    /// Starts preparing images of `assets` for `request` in the background (the grid rows
    /// about to scroll into view), without ever delaying a visible request.
    func startCaching(_ assets: [Asset], request: ImageRequest) async
    /// Stops preparing images of `assets` for `request`; what is ready stays cached.
    func stopCaching(_ assets: [Asset], request: ImageRequest) async
    /// Stops all background preparation.
    func stopCachingAll() async

    // MARK: Changes

    /// Applies change requests in one transaction and reports what was created.
    @discardableResult
    func performChanges(_ requests: [ChangeRequest]) async throws -> ChangeResult
    /// Live changes, as they happen, until the consumer stops listening.
    func changes() -> AsyncStream<LibraryChange>
    /// Everything that changed after `token` (also across restarts), merged into one change.
    func changes(since token: ChangeToken) async throws -> LibraryChange
}

extension PhotoLibrary {
    /// A cheap, possibly stale count (`nil`: unknown).
    public func estimatedAssetCount(in collection: AssetCollection) -> Int? {
        collection.estimatedAssetCount
    }

    /// The asset a collection's poster shows for `filter`: its oldest asset under the filter,
    /// as PhotoKit's key asset is. `nil` for an empty collection.
    public func keyAsset(of collection: CollectionIdentifier, filter: MediaFilter) async throws -> Asset? {
        let options = FetchOptions(mediaFilter: filter, sortOrder: .oldestFirst, limit: 1)
        return try await assets(in: collection, options: options).first()
    }

    /// A collection's poster image for a media filter: its key asset rendered as an asset
    /// poster. An empty collection gives an empty stream, not an error.
    public func posterImage(for collection: CollectionIdentifier, filter: MediaFilter = .all,
                            size: PixelSize) -> AsyncThrowingStream<ImageResult, Error> {
        .producing { continuation in
            if let asset = try await keyAsset(of: collection, filter: filter) {
                for try await result in posterImage(for: asset, size: size) { continuation.yield(result) }
            }
        }
    }

    /// An asset's poster: a fill request at `size` (fill looks sharper than fit in a grid).
    public func posterImage(for asset: Asset, size: PixelSize) -> AsyncThrowingStream<ImageResult, Error> {
        image(for: asset, request: ImageRequest(targetSize: size, contentMode: .fill))
    }

    /// The full-resolution image, upright; network access allowed, one final answer.
    public func fullResolutionImage(for asset: Asset, format: ImageFormat = .jpeg, quality: Int = 90) async throws -> ImageResult {
        try await finalImage(for: asset, request: .fullResolution(format: format, quality: quality))
    }

    /// The final answer of an image request, skipping degraded ones.
    public func finalImage(for asset: Asset, request: ImageRequest) async throws -> ImageResult {
        var last: ImageResult?
        for try await result in image(for: asset, request: request) where !result.isDegraded {
            last = result
        }
        guard let last else { throw LibraryError.unsupported("an image for \(asset.filename)") }
        return last
    }

    /// The total byte size of the originals of `assets` that pass `filter` (photos by
    /// default, as the original picker counted), from metadata alone: nothing is read,
    /// decoded or downloaded.
    public func byteSize(of assets: [Asset], including filter: MediaFilter = .photo) -> Int64 {
        assets.reduce(0) { filter.includes($1.mediaType) ? $0 + $1.byteSize : $0 }
    }
}
