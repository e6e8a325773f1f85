import Foundation

/// Why a video could not be probed or a frame taken from it.
///
/// Each description names the file (as given: a path, or a bare file name), so a message in a
/// log or a UI says which video failed.
public enum VideoError: Error, Sendable, Hashable, CustomStringConvertible {
    /// There is no file at the URL.
    case fileNotFound(file: URL)
    /// FFmpeg could not read the file as media; `reason` is the end of its error output.
    case unreadable(file: URL, reason: String)
    /// The file is media but has no video stream (audio only, or only cover art).
    case noVideoStream(file: URL)
    /// The file has a video stream but no frame of it could be decoded.
    case noFrames(file: URL)

    public var description: String {
        switch self {
        case let .fileNotFound(file):
            "\(file.relativePath): no such file"
        case let .unreadable(file, reason):
            "\(file.relativePath): not a readable video (\(reason))"
        case let .noVideoStream(file):
            "\(file.relativePath): has no video stream"
        case let .noFrames(file):
            "\(file.relativePath): no video frame could be decoded"
        }
    }
}
