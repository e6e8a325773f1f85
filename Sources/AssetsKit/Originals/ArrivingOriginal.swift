import Foundation

/// An original passed on while it is brought here from where it is kept
/// (``RemoteOriginals/arrivingOriginal(of:)``): its bytes in order, as they come.
public struct ArrivingOriginal: Sendable {
    /// The original's file name.
    public var filename: String
    /// The original's size in bytes: what ``nextChunk`` gives in all when the transfer succeeds.
    public var byteSize: Int64
    /// The MIME type, e.g. `image/jpeg` or `video/mp4`.
    public var contentType: String
    /// The next chunk of the bytes, from the first, as they come; `nil` after the last. Call it
    /// from one task at a time: nothing is read ahead of the caller, so a slow reader holds no
    /// more than a chunk. The last byte comes only once the whole original is here and checked
    /// to be the version the library knows; when the transfer fails it throws, and what came is
    /// to be discarded. Released before its end, it stops the transfer unless another caller
    /// waits for it.
    public let nextChunk: @Sendable () async throws -> Data?

    /// An arriving original with every property given.
    public init(filename: String, byteSize: Int64, contentType: String, nextChunk: @escaping @Sendable () async throws -> Data?) {
        self.filename = filename
        self.byteSize = byteSize
        self.contentType = contentType
        self.nextChunk = nextChunk
    }
}
