import AssetsKit

/// The fixed renditions AssetsLibrary kept of every asset, for the legacy API that asks for
/// them by name (``FolderLibrary/image(for:representation:format:quality:)``). An
/// `ImageRequest` with a target size and mode is answered at that size instead, on every backend.
public enum Representation: String, Sendable, CaseIterable {
    /// A centre crop, `squareSide` on each side.
    case squareThumbnail
    /// The whole image, longest side `aspectRatioLongestSide`.
    case aspectRatioThumbnail
    /// The whole image, fitting `fullScreenBounds`.
    case fullScreen
    /// The whole original.
    case fullResolution

    public static let squareSide = 150
    public static let aspectRatioLongestSide = 256
    public static let fullScreenBounds = PixelSize(width: 2048, height: 2048)

    /// The size of this rendition of an image whose upright size is `original` (never enlarged).
    public func pixelSize(forOriginal original: PixelSize) -> PixelSize {
        switch self {
        case .squareThumbnail:
            let side = min(Self.squareSide, original.width, original.height)
            return PixelSize(width: side, height: side)
        case .aspectRatioThumbnail:
            return original.fitting(in: PixelSize(width: Self.aspectRatioLongestSide, height: Self.aspectRatioLongestSide))
        case .fullScreen:
            return original.fitting(in: Self.fullScreenBounds)
        case .fullResolution:
            return original
        }
    }

    /// How the rendition is cut from the original.
    public var contentMode: ContentMode { self == .squareThumbnail ? .fill : .fit }

    /// The target size that renders this rendition with ``contentMode``; `PixelSize.maximum` for the whole original.
    public var bounds: PixelSize {
        switch self {
        case .squareThumbnail: PixelSize(width: Self.squareSide, height: Self.squareSide)
        case .aspectRatioThumbnail: PixelSize(width: Self.aspectRatioLongestSide, height: Self.aspectRatioLongestSide)
        case .fullScreen: Self.fullScreenBounds
        case .fullResolution: .maximum
        }
    }

    /// The image source an answer from this rendition reports.
    public var imageSource: ImageSource {
        switch self {
        case .squareThumbnail: .squareThumbnail
        case .aspectRatioThumbnail: .aspectRatioThumbnail
        case .fullScreen: .fullScreen
        case .fullResolution: .fullResolution
        }
    }
}
