import AssetsKit

/// What an export writes for each asset.
public struct ExportOptions: Sendable, Hashable {
    /// Copy the original bytes instead of rendering (videos are always copied).
    public var original: Bool
    /// Resize to fit or fill this size; `nil` for full resolution.
    public var size: PixelSize?
    public var contentMode: ContentMode
    public var resizeMode: ResizeMode
    public var format: ImageFormat
    public var quality: Int
    /// Assets rendered at once (default: one per core).
    public var concurrency: Int

    public init(original: Bool = false, size: PixelSize? = nil, contentMode: ContentMode = .fit,
                resizeMode: ResizeMode = .exact, format: ImageFormat = .jpeg, quality: Int = 85, concurrency: Int = 0) {
        self.original = original
        self.size = size
        self.contentMode = contentMode
        self.resizeMode = resizeMode
        self.format = format
        self.quality = quality
        self.concurrency = concurrency
    }
}
