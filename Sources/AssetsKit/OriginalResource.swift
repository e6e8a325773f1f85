import Foundation

/// An asset's original file, ready to read.
public struct OriginalResource: Sendable, Hashable {
    /// Where the bytes are (a local file; a remote original is downloaded first).
    public var fileURL: URL
    public var filename: String
    public var byteSize: Int64
    /// The MIME type, e.g. `image/jpeg` or `video/mp4`.
    public var contentType: String

    public init(fileURL: URL, filename: String, byteSize: Int64, contentType: String) {
        self.fileURL = fileURL
        self.filename = filename
        self.byteSize = byteSize
        self.contentType = contentType
    }
}
