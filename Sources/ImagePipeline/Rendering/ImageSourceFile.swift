import AssetsKit
import Foundation
import ImageMetadata

/// The original behind an asset, as the image pipeline needs it: where it is, which version it
/// is, and what it is.
public struct ImageSourceFile: Sendable, Hashable {
    /// A stable name of the asset (its UUID), shared by every version of its file.
    public var assetKey: String
    /// Where the original is in its library and the version the library knows: a render opens
    /// it confined to the library and reads that version or nothing.
    public var original: OriginalLocation
    /// The file's size and modification date: a new version gets new cache entries.
    public var byteSize: Int64
    public var modificationDate: Date
    public var mediaType: MediaType
    /// Upright size.
    public var pixelSize: PixelSize
    public var orientation: Int
    public var hasEmbeddedThumbnail: Bool
    /// A video's length in seconds, when known: its poster frame is taken a tenth of the way in
    /// (at most ``VideoPosterFrame/defaultPosition``).
    public var duration: Double?
    /// A small upright JPEG of this version made ahead of time (an indexed library's preview,
    /// see `PreviewStore`), the quickest degraded image; it need not exist.
    public var previewURL: URL?
    /// What brings the original to ``original``'s local place when it is kept elsewhere (a
    /// bucket); `nil` when it is always there. A render that needs the original waits for it
    /// when the request allows network access, and fails with
    /// `LibraryError.networkAccessRequired(file:)` when it does not.
    public var fetcher: (any OriginalFetching)? {
        get { fetcherIdentity?.fetcher }
        set { fetcherIdentity = newValue.map(FetcherIdentity.init) }
    }
    /// ``fetcher``, compared by identity (so that a source stays `Hashable`).
    private var fetcherIdentity: FetcherIdentity?

    public init(assetKey: String, original: OriginalLocation, byteSize: Int64, modificationDate: Date, mediaType: MediaType,
                pixelSize: PixelSize, orientation: Int = 1, hasEmbeddedThumbnail: Bool = false, duration: Double? = nil,
                previewURL: URL? = nil) {
        self.assetKey = assetKey
        self.original = original
        self.byteSize = byteSize
        self.modificationDate = modificationDate
        self.mediaType = mediaType
        self.pixelSize = pixelSize
        self.orientation = orientation
        self.hasEmbeddedThumbnail = hasEmbeddedThumbnail
        self.duration = duration
        self.previewURL = previewURL
    }

    /// Where a video's poster frame is taken: a tenth of the way in, at most
    /// ``VideoPosterFrame/defaultPosition`` (`nil`, that default, when the length is unknown).
    public var posterFramePosition: Double? {
        duration.map { min(VideoPosterFrame.defaultPosition, $0 / 10) }
    }

    /// The source of `asset`, whose original is at `original`.
    public init(asset: Asset, original: OriginalLocation) {
        self.init(assetKey: asset.id.uuid.uuidString, original: original, byteSize: asset.byteSize,
                  modificationDate: asset.modificationDate, mediaType: asset.mediaType, pixelSize: asset.pixelSize,
                  orientation: asset.orientation, hasEmbeddedThumbnail: asset.hasEmbeddedThumbnail, duration: asset.duration)
    }

    /// Whether a render can read the original without waiting for the network.
    public var isLocal: Bool {
        fetcher?.isLocal(original) ?? true
    }

    /// Brings the original to its local place when it is kept elsewhere and not here yet.
    /// - Throws: `LibraryError.networkAccessRequired(file:)` when it must be fetched and
    ///   `allowingNetwork` is `false`; what the fetcher throws.
    public func fetchOriginal(allowingNetwork: Bool, progress: (@Sendable (TransferProgress) -> Void)? = nil) async throws {
        guard let fetcher, !fetcher.isLocal(original) else { return }
        guard allowingNetwork else { throw LibraryError.networkAccessRequired(file: original.filename) }
        try await fetcher.fetch(original, progress: progress)
    }

    /// Whether the image `request` asks for is made from the preview rather than the original:
    /// the original is kept elsewhere and not here, and the preview (``previewURL``) is there and
    /// at least as large as the final image, so browsing at preview sizes never waits for the
    /// network (with it allowed or not). Reads the preview's header when the original is not local.
    public func rendersFromPreview(_ request: ImageRequest) -> Bool {
        guard let previewURL, !request.isFullResolution, !isLocal,
              let header = try? JPEGHeader.read(contentsOf: previewURL) else { return false }
        let final = CachingImageManager.finalSize(of: self, for: request)
        return header.width >= final.width && header.height >= final.height
    }

    /// Identifies this version of the file: asset, size and modification time to the nanosecond.
    public var version: SourceVersion {
        SourceVersion(assetKey: assetKey, byteSize: byteSize, modificationTime: SourceVersion.nanoseconds(modificationDate))
    }
}

/// A fetcher compared by identity.
private struct FetcherIdentity: Sendable, Hashable {
    let fetcher: any OriginalFetching

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.fetcher === rhs.fetcher }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(fetcher)) }
}
