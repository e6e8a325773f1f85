/// Limits and strictness of image decoding.
public struct PipelineConfiguration: Sendable, Hashable {
    /// The most pixels an image may have; checked from the header before any decode. The
    /// default is sharp's (0x3FFF x 0x3FFF).
    public var maxPixels: Int
    /// How damaged data is treated.
    public var strictness: DecodeStrictness

    public init(maxPixels: Int = 268_402_689, strictness: DecodeStrictness = .failOnWarning) {
        self.maxPixels = maxPixels
        self.strictness = strictness
    }
}

/// How strictly decoders treat damaged data.
public enum DecodeStrictness: Int32, Sendable, Hashable {
    /// Decode what can be decoded (a damaged file may come out partly grey).
    case lenient = 0
    /// Refuse truncated files.
    case failOnTruncation = 1
    /// Refuse files with decoding errors.
    case failOnError = 2
    /// Refuse any file a decoder warns about: corrupt data is an error, not a grey image.
    case failOnWarning = 3
}
