import AssetsKit
import Foundation

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

    /// Identifies this version of the file: asset, size and modification time to the nanosecond.
    public var version: SourceVersion {
        SourceVersion(assetKey: assetKey, byteSize: byteSize, modificationTime: SourceVersion.nanoseconds(modificationDate))
    }
}

/// One version of one asset's original file.
public struct SourceVersion: Sendable, Hashable {
    public var assetKey: String
    public var byteSize: Int64
    /// Nanoseconds since 1970.
    public var modificationTime: Int64

    public init(assetKey: String, byteSize: Int64, modificationTime: Int64) {
        self.assetKey = assetKey
        self.byteSize = byteSize
        self.modificationTime = modificationTime
    }

    /// The version of `asset`'s original its library read: the version of the source the
    /// library gives for it (``ImageSourceFile/init(asset:original:)``).
    public init(_ asset: Asset) {
        self.init(assetKey: asset.id.uuid.uuidString, byteSize: asset.byteSize, modificationTime: Self.nanoseconds(asset.modificationDate))
    }

    /// `date` in whole nanoseconds since 1970.
    public static func nanoseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1e9).rounded())
    }
}
