import AssetsKit

/// What a rendition is: which version of which original, at what size, cut and encoding — the
/// one name of an image, from which everything that keys one derives: the memory and disk
/// caches, renders in flight, a server's answers and their entity tags (``entityTag``).
///
/// How soon it is wanted and how it is delivered are not part of it: the final rendition
/// answers every delivery mode and priority. A fill larger than the original is named as it is
/// rendered (`ImageRequest.bounded(byOriginal:)`), so two requests that make the same image
/// share one key.
public struct RenditionKey: Sendable, Hashable, CustomStringConvertible {
    public var source: SourceVersion
    public var targetSize: PixelSize
    public var contentMode: ContentMode
    public var resizeMode: ResizeMode
    public var format: ImageFormat
    public var quality: Int

    /// The key of `request` rendered from `source`, `request` taken as it is (already bounded).
    public init(source: SourceVersion, request: ImageRequest) {
        self.source = source
        self.targetSize = request.targetSize
        self.contentMode = request.contentMode
        self.resizeMode = request.resizeMode
        self.format = request.format
        self.quality = request.quality
    }

    /// The key of the image `request` makes of `source`.
    public init(_ source: ImageSourceFile, _ request: ImageRequest) {
        self.init(source: source.version, request: request.bounded(byOriginal: source.pixelSize))
    }

    /// The key of the image `request` makes of `asset`'s original as the asset knows it: the
    /// same key the pipeline gives a source of that version.
    public init(_ asset: Asset, _ request: ImageRequest) {
        self.init(source: SourceVersion(asset), request: request.bounded(byOriginal: asset.pixelSize))
    }

    /// A stable text form: the input of the disk cache's file names and of ``entityTag``.
    public var description: String {
        "\(source.assetKey)|\(source.byteSize)|\(source.modificationTime)|\(targetSize)|\(contentMode.rawValue)|\(resizeMode.rawValue)|\(format.rawValue)|q\(quality)"
    }

    /// A strong HTTP entity tag of the rendition: quoted, a hash of ``description``.
    public var entityTag: String {
        "\"" + String(FNV1a.hash(Array(description.utf8)), radix: 16) + "\""
    }
}
