import AssetsKit

/// The fixed renditions AssetsLibrary kept of every asset, from which a folder library answers
/// image requests.
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

    /// The rendition that answers a request for `target`, by the original rule: the square
    /// thumbnail when both sides of the target are smaller than its sides (marked degraded: it
    /// is a crop), else the aspect-ratio thumbnail when both are smaller than its sides, else
    /// the full-screen image. Full resolution only when asked for with ``PixelSize/maximum``.
    public static func answering(_ target: PixelSize, original: PixelSize) -> (representation: Representation, isDegraded: Bool) {
        if target == .maximum { return (.fullResolution, false) }
        let square = squareThumbnail.pixelSize(forOriginal: original)
        if target.width < square.width && target.height < square.height { return (.squareThumbnail, true) }
        let aspect = aspectRatioThumbnail.pixelSize(forOriginal: original)
        if target.width < aspect.width && target.height < aspect.height { return (.aspectRatioThumbnail, false) }
        return (.fullScreen, false)
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
