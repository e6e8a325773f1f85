import AssetsKit
import Foundation

/// What an image file says about itself, read without decoding its pixels.
public struct ImageHeader: Sendable, Hashable {
    /// The stored size of the first page or frame (before orientation).
    public var storedSize: PixelSize
    /// EXIF orientation, 1...8.
    public var orientation: Int
    /// Number of pages or frames (animated GIF/WebP, multi-image HEIF, multi-page TIFF).
    public var pageCount: Int
    public var hasAlpha: Bool
    /// The format as a short lower-case name: `jpeg`, `png`, `webp`, `heif`, `avif`, `gif`, `tiff`, ...
    public var format: String
    /// The raw EXIF block, when the file has one.
    public var exif: Data?
    /// An orientation libvips does not see (EXIF in a PNG text chunk) and the pipeline must
    /// apply itself; 1 when the decoder applies the orientation.
    var orientationOutsideDecoder = 1

    /// A header whose orientation the decoder applies (read by libvips, or natively for a JPEG).
    package init(storedSize: PixelSize, orientation: Int, pageCount: Int, hasAlpha: Bool, format: String, exif: Data?) {
        self.storedSize = storedSize
        self.orientation = orientation
        self.pageCount = pageCount
        self.hasAlpha = hasAlpha
        self.format = format
        self.exif = exif
    }

    /// The size once the orientation is applied.
    public var uprightSize: PixelSize {
        orientation >= 5 ? storedSize.transposed : storedSize
    }
}
