import AssetsKit

/// What a rendition is: which version of which original, at what size, cut and encoding.
/// Cache entries and in-flight work are keyed by it.
public struct ImageCacheKey: Sendable, Hashable, CustomStringConvertible {
    public var source: SourceVersion
    public var targetSize: PixelSize
    public var contentMode: ContentMode
    public var resizeMode: ResizeMode
    public var format: ImageFormat
    public var quality: Int

    public init(source: SourceVersion, request: ImageRequest) {
        self.source = source
        self.targetSize = request.targetSize
        self.contentMode = request.contentMode
        self.resizeMode = request.resizeMode
        self.format = request.format
        self.quality = request.quality
    }

    /// A stable text form, also the input of the disk cache's file names.
    public var description: String {
        "\(source.assetKey)|\(source.byteSize)|\(source.modificationTime)|\(targetSize)|\(contentMode.rawValue)|\(resizeMode.rawValue)|\(format.rawValue)|q\(quality)"
    }
}
