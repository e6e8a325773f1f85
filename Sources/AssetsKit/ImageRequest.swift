/// What image of an asset a caller wants: the PHImageRequestOptions role.
public struct ImageRequest: Sendable, Hashable {
    /// The size the image is for, in pixels. ``PixelSize/maximum`` asks for full resolution.
    public var targetSize: PixelSize
    /// How the image fills the target size.
    public var contentMode: ContentMode
    /// How soon and in what quality the images come.
    public var deliveryMode: DeliveryMode
    /// How exactly the image is resized.
    public var resizeMode: ResizeMode
    /// The encoding of the delivered bytes.
    public var format: ImageFormat
    /// Encoder quality, 1...100.
    public var quality: Int
    /// Whether an original that lives elsewhere (an HTTP origin) may be downloaded.
    public var isNetworkAccessAllowed: Bool

    /// A request for an image of `targetSize`; `quality` is clamped to 1...100.
    public init(targetSize: PixelSize, contentMode: ContentMode = .fit,
                deliveryMode: DeliveryMode = .opportunistic, resizeMode: ResizeMode = .exact,
                format: ImageFormat = .jpeg, quality: Int = 85, isNetworkAccessAllowed: Bool = false) {
        self.targetSize = targetSize
        self.contentMode = contentMode
        self.deliveryMode = deliveryMode
        self.resizeMode = resizeMode
        self.format = format
        self.quality = min(100, max(1, quality))
        self.isNetworkAccessAllowed = isNetworkAccessAllowed
    }

    /// The full-resolution image, upright, one final answer; may fetch a remote original.
    public static func fullResolution(format: ImageFormat = .jpeg, quality: Int = 90) -> ImageRequest {
        ImageRequest(targetSize: .maximum, contentMode: .fit, deliveryMode: .highQualityFormat,
                     format: format, quality: quality, isNetworkAccessAllowed: true)
    }

    /// Whether this asks for the full-resolution image.
    public var isFullResolution: Bool { targetSize == .maximum }
}

extension PixelSize {
    /// Stands for "as large as the original" (PHImageManagerMaximumSize).
    public static let maximum = PixelSize(width: .max, height: .max)
}

/// How an image is fitted to the target size.
public enum ContentMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// The whole image, inside the target size.
    case fit
    /// The target size covered, the overflow cropped from the centre.
    case fill
}

/// How many answers a request gets, and how fast the first comes.
public enum DeliveryMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// A quick degraded image first when one is at hand, then exactly one final image.
    case opportunistic
    /// One answer, at least the requested quality.
    case highQualityFormat
    /// One answer, the quickest available, possibly smaller than asked.
    case fastFormat
}

/// How exactly the image is resized.
public enum ResizeMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Exactly the size the content mode gives.
    case exact
    /// Close to it, decoding at a coarser scale where that is quicker.
    case fast
}

/// An encoded image format the pipeline writes.
public enum ImageFormat: String, Sendable, Hashable, Codable, CaseIterable {
    /// JPEG (baseline, 8-bit).
    case jpeg
    /// WebP (lossy).
    case webp

    /// The MIME type.
    public var mimeType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .webp: "image/webp"
        }
    }

    /// The usual file extension.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .webp: "webp"
        }
    }
}
