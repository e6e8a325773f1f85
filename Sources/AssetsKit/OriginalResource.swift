import Foundation

/// An asset's original file, open and ready to read.
public struct OriginalResource: Sendable {
    /// The original, opened confined to its library and checked to be the version the library
    /// knows (a remote original is downloaded first). Read it through this, never by a path.
    public var file: OpenOriginal
    /// The original's file name.
    public var filename: String
    /// The original's size in bytes.
    public var byteSize: Int64
    /// The MIME type, e.g. `image/jpeg` or `video/mp4`.
    public var contentType: String

    /// An original file with every property given.
    public init(file: OpenOriginal, filename: String, byteSize: Int64, contentType: String) {
        self.file = file
        self.filename = filename
        self.byteSize = byteSize
        self.contentType = contentType
    }
}
