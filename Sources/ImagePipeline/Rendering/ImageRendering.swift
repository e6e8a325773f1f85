import AssetsKit

/// Makes the images a ``CachingImageManager`` delivers. The default renders with libvips
/// (photos) and ffmpeg (video frames); tests put in slow or counting renderers.
public protocol ImageRendering: Sendable {
    /// The requested rendition of `source` (fit or fill the target size, upright); blocking
    /// work is fine, the manager calls it off the cooperative thread pool.
    func render(_ source: ImageSourceFile, request: ImageRequest) async throws -> ImageResult
    /// A quick, lower-quality image of `source` if one is at hand without decoding it (a
    /// preview made ahead of time, an embedded EXIF or HEIF thumbnail), marked degraded.
    func quickImage(_ source: ImageSourceFile, request: ImageRequest) -> ImageResult?
}
