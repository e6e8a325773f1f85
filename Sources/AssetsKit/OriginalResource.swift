import Foundation

/// An asset's original file, ready to read.
public struct OriginalResource: Sendable, Hashable {
    /// Where the bytes are (a local file; a remote original is downloaded first).
    public var fileURL: URL
    /// The original's file name.
    public var filename: String
    /// The original's size in bytes.
    public var byteSize: Int64
    /// The MIME type, e.g. `image/jpeg` or `video/mp4`.
    public var contentType: String

    /// An original file with every property given.
    public init(fileURL: URL, filename: String, byteSize: Int64, contentType: String) {
        self.fileURL = fileURL
        self.filename = filename
        self.byteSize = byteSize
        self.contentType = contentType
    }
}
