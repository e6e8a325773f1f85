import Foundation

/// A photo library: the one protocol every backend implements.
///
/// `FolderLibrary` (a folder tree enumerated live, the AssetsLibrary role) and the indexed
/// library (the PhotoKit role) both answer it, so a picker and a client work the same over
/// either. Every operation of the original picker manager is here, in async Swift.
///
/// What only some libraries can do is asked, never inferred from which library it is: each
/// optional capability is an accessor that answers `nil` when the library lacks it
/// (``changing``, ``changeHistory``, ``indexing``, ``drafts``, ``watching``,
/// ``skippedFileReport``, ``backgroundSettling``, ``previewing``). A new
/// backend answers the capabilities it has; no caller compares backend names or casts.
public protocol PhotoLibrary: Sendable {
    /// A short name of the backend (`folder`, `indexed`), for display only.
    var backendName: String { get }
    /// The folder the library shows, or, for a library whose originals are kept elsewhere,
    /// where they are (`s3://BUCKET/PREFIX`). ``placeDescription`` writes it for a person.
    var rootURL: URL { get }

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
    /// The album list: every collection, in ``collections()``'s order, with its exact count
    /// under `filter` and its key asset, at once. A backend answers it in a number of queries
    /// that does not grow with the number of albums; the default asks ``assetCount(in:filter:)``
    /// and ``keyAsset(of:filter:)`` of each collection.
    func albumSummaries(filter: MediaFilter) async throws -> [AlbumSummary]

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

    /// The quickest images of `assets` for `request` that decode nothing large — a preview made
    /// ahead, an embedded thumbnail, a smaller rendition at hand — each maybe smaller or larger
    /// than asked and not cropped, marked degraded, by UUID; an asset with none is left out (it
    /// needs a render). Nothing is rendered from an original, and no image is started after
    /// `deadline` (those started finish).
    func quickImages(for assets: [Asset], request: ImageRequest, startingBefore deadline: ContinuousClock.Instant) async -> [UUID: ImageResult]

    /// The original file of a photo or video, open: confined to the library (no link out of it
    /// followed) and checked to be the version the library knows (``OriginalLocation/open()``).
    /// - Throws: ``LibraryError/originalUnavailable(file:)`` when the file is gone or changed
    ///   since the library read it, or leads out of the library.
    func originalFile(for asset: Asset) async throws -> OriginalResource

    /// The original file of a photo or video, as ``originalFile(for:)`` gives it, fetched first
    /// when it is kept elsewhere (a bucket) and `request` allows network access, with progress.
    /// - Throws: What ``originalFile(for:)`` throws; ``LibraryError/networkAccessRequired(file:)``
    ///   for an original elsewhere that `request` may not fetch.
    func originalFile(for asset: Asset, request: OriginalRequest) async throws -> OriginalResource

    // MARK: Prefetching

    /// Starts preparing images of `assets` for `request` in the background (the grid rows
    /// about to scroll into view), without ever delaying a visible request.
    func startCaching(_ assets: [Asset], request: ImageRequest) async
    /// Stops preparing images of `assets` for `request`; what is ready stays cached.
    func stopCaching(_ assets: [Asset], request: ImageRequest) async
    /// Stops all background preparation.
    func stopCachingAll() async

    // MARK: Changes

    /// Live changes, as they happen, until the consumer stops listening (a library that
    /// records no changes ends the stream at once).
    func changes() -> AsyncStream<LibraryChange>

    // MARK: Capabilities

    /// The library's changes (albums, favourites, deletion, imports); `nil` when it cannot be changed.
    var changing: (any LibraryChanging)? { get }
    /// The library's recorded changes, by token; `nil` when it keeps no history.
    var changeHistory: (any LibraryChangeHistory)? { get }
    /// The library's index of its storage and its scans; `nil` when it keeps none.
    var indexing: (any LibraryIndexing)? { get }
    /// The library's drafts of picks; `nil` when it has nowhere to keep them.
    var drafts: (any LibraryDrafts)? { get }
    /// Keeping the library in line with its storage while open; `nil` when it needs no watching.
    var watching: (any LibraryWatching)? { get }
    /// The files the library passes over when listing; `nil` when it does not report them.
    var skippedFileReport: (any SkippedFileReporting)? { get }
    /// Waiting for the library's background reads to finish; `nil` when its answers are exact from the start.
    var backgroundSettling: (any BackgroundSettling)? { get }
    /// Making small previews of the photos ahead of time; `nil` when the library makes none.
    var previewing: (any LibraryPreviewing)? { get }
    /// Which originals are on this machine, for a library that keeps them elsewhere; `nil` when
    /// every original is here.
    var remoteOriginals: (any RemoteOriginals)? { get }
}

extension PhotoLibrary {
    /// Where the library is, for a person: the folder's path, or the address of a place
    /// elsewhere as written (`s3://BUCKET/PREFIX`).
    public var placeDescription: String {
        rootURL.isFileURL ? rootURL.path : rootURL.absoluteString
    }

    /// An original file of a library whose originals are all on this machine: as
    /// ``originalFile(for:)`` gives it, whatever `request` allows.
    public func originalFile(for asset: Asset, request: OriginalRequest) async throws -> OriginalResource {
        try await originalFile(for: asset)
    }

    /// No quick images: a backend without previews or embedded thumbnails renders every image.
    public func quickImages(for assets: [Asset], request: ImageRequest,
                            startingBefore deadline: ContinuousClock.Instant) async -> [UUID: ImageResult] { [:] }

    /// The album list by asking each collection its count and key asset: one query per
    /// collection, for backends that have nothing faster.
    public func albumSummaries(filter: MediaFilter) async throws -> [AlbumSummary] {
        var summaries: [AlbumSummary] = []
        for collection in try await collections() {
            let count = try await assetCount(in: collection.id, filter: filter)
            let key = count == 0 ? nil : try await keyAsset(of: collection.id, filter: filter)
            summaries.append(AlbumSummary(collection: collection, count: count, keyAsset: key))
        }
        return summaries
    }

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
