import Foundation

/// One answer to an image request: encoded bytes, their size, and whether better follows.
public struct ImageResult: Sendable, Hashable {
    /// The encoded image.
    public var data: Data
    /// The encoding of ``data``.
    public var format: ImageFormat
    /// The pixel size of the encoded image (upright).
    public var pixelSize: PixelSize
    /// `true` for a quick, lower-quality answer that a final one will replace.
    public var isDegraded: Bool
    /// What produced this answer.
    public var source: ImageSource

    /// An answer with every property given.
    public init(data: Data, format: ImageFormat, pixelSize: PixelSize, isDegraded: Bool, source: ImageSource) {
        self.data = data
        self.format = format
        self.pixelSize = pixelSize
        self.isDegraded = isDegraded
        self.source = source
    }
}

/// Where an ``ImageResult`` came from.
public enum ImageSource: String, Sendable, Hashable, Codable {
    /// The thumbnail the camera embedded in the file (EXIF block, HEIF thumbnail item).
    case embeddedThumbnail
    /// A small upright preview the library made when it indexed the file.
    case preview
    /// AssetsLibrary's 150-pixel square thumbnail.
    case squareThumbnail
    /// AssetsLibrary's aspect-ratio thumbnail (longest side 256).
    case aspectRatioThumbnail
    /// AssetsLibrary's full-screen image (fits 2048 x 2048).
    case fullScreen
    /// The whole original, decoded.
    case fullResolution
    /// Rendered from the original at the requested size.
    case rendered
    /// A frame taken from a video.
    case videoFrame
    /// A cache held a rendition already.
    case memoryCache
    /// The disk cache held a rendition already.
    case diskCache
}
