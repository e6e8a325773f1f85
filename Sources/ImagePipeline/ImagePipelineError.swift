import Foundation

/// What can go wrong turning a file into an image, with the file and a reason a person can act on.
public enum ImagePipelineError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The header announces more pixels than the configured limit; nothing was decoded.
    case tooManyPixels(file: String, pixels: Int, limit: Int)
    /// The file is damaged or not what its name says.
    case undecodable(file: String, reason: String)
    /// The format is known but this build cannot decode it.
    case unsupportedFormat(file: String, reason: String)
    /// The file could not be read at all.
    case unreadable(file: String, reason: String)
    /// Encoding the result failed.
    case encodingFailed(reason: String)
    /// An image library could not be started.
    case libraryUnavailable(reason: String)

    public var description: String {
        switch self {
        case let .tooManyPixels(file, pixels, limit):
            "\(file): \(pixels) pixels is over the limit of \(limit); raise --max-pixels to open it"
        case let .undecodable(file, reason):
            "\(file): cannot decode the image: \(reason)"
        case let .unsupportedFormat(file, reason):
            "\(file): unsupported format: \(reason)"
        case let .unreadable(file, reason):
            "\(file): cannot read the file: \(reason)"
        case .encodingFailed(let reason):
            "cannot encode the image: \(reason)"
        case .libraryUnavailable(let reason):
            reason
        }
    }
}
