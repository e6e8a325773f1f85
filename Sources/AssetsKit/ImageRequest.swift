/// What image of an asset a caller wants: the PHImageRequestOptions role.
///
/// The final image's size follows from the target size, the content mode and the original's
/// upright size, the same on every backend, and is never larger than the original:
/// - ``ContentMode/fit``: the whole image, as large as fits inside the target.
/// - ``ContentMode/fill``: exactly the target size, cropped from the centre. When the original
///   is smaller than the target on either side, the largest size with the target's aspect
///   ratio that fits inside the original (300×200 of a 128×128 original gives 128×85): the
///   asked shape is kept, never enlarged.
/// - ``PixelSize/maximum``: the whole original.
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
    /// Whether an original kept elsewhere (a bucket) may be fetched to make the image. Without
    /// it, an image that needs such an original not yet on this machine fails with
    /// ``LibraryError/networkAccessRequired(file:)`` (after the degraded image, when there is one).
    public var isNetworkAccessAllowed: Bool
    /// How urgent the image is: the render queue's tier its render waits in. A
    /// ``DeliveryMode/fastFormat`` render is always ``RenderPriority/visibleFirst``.
    public var priority: RenderPriority
    /// Whether the final image is kept in the pipeline's memory cache. A caller that keeps the
    /// bytes itself (a server's answers, ready to send again) says `false`, so that a rendition
    /// is held in memory once; the disk cache keeps it either way.
    public var keepsInMemory: Bool
    /// Who the image is for (a picker session, say), for fair turns: renders of one tier take
    /// turns between requesters, so that one requester's many renders never hold up another's.
    /// `nil` shares one turn with every other request without a requester.
    public var requester: String?

    /// A request for an image of `targetSize`; `quality` is clamped to 1...100.
    public init(targetSize: PixelSize, contentMode: ContentMode = .fit,
                deliveryMode: DeliveryMode = .opportunistic, resizeMode: ResizeMode = .exact,
                format: ImageFormat = .jpeg, quality: Int = 85, isNetworkAccessAllowed: Bool = false,
                priority: RenderPriority = .visibleFirst, keepsInMemory: Bool = true, requester: String? = nil) {
        self.targetSize = targetSize
        self.contentMode = contentMode
        self.deliveryMode = deliveryMode
        self.resizeMode = resizeMode
        self.format = format
        self.quality = min(100, max(1, quality))
        self.isNetworkAccessAllowed = isNetworkAccessAllowed
        self.priority = priority
        self.keepsInMemory = keepsInMemory
        self.requester = requester
    }

    /// The full-resolution image, upright, one final answer; may fetch a remote original.
    public static func fullResolution(format: ImageFormat = .jpeg, quality: Int = 90) -> ImageRequest {
        ImageRequest(targetSize: .maximum, contentMode: .fit, deliveryMode: .highQualityFormat,
                     format: format, quality: quality, isNetworkAccessAllowed: true)
    }

    /// Whether this asks for the full-resolution image.
    public var isFullResolution: Bool { targetSize == .maximum }

    /// This request as it is rendered for an original of upright size `original`: a fill
    /// target larger than the original on either side becomes the largest size with its aspect
    /// ratio inside the original; anything else is unchanged (see the rule above).
    public func bounded(byOriginal original: PixelSize) -> ImageRequest {
        guard contentMode == .fill, !isFullResolution, !original.isEmpty,
              targetSize.width > original.width || targetSize.height > original.height else { return self }
        var bounded = self
        bounded.targetSize = targetSize.fitting(in: original)
        return bounded
    }
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
