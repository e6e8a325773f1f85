import Foundation

/// The bytes of a cache file as read, kept so that a file's metadata is decoded only when an
/// asset is made of it (a listing of a large library needs only each file's creation date).
final class CacheBuffer: Sendable {
    private let data: Data
    /// Where the payload starts: the offsets given are from there.
    private let payloadOffset: Int

    init(data: Data, payloadOffset: Int) {
        self.data = data
        self.payloadOffset = payloadOffset
    }

    /// The outcome encoded at `offset` of the payload; `nil` if it cannot be decoded (the file
    /// was checked whole when read, so only a bug would make it so: the file is then read again).
    func outcome(at offset: Int) -> FolderCache.Outcome? {
        data.withUnsafeBytes { buffer in
            var reader = ByteReader(UnsafeRawBufferPointer(rebasing: buffer[payloadOffset...]), offset: offset)
            return try? FolderCacheFile.decodeOutcome(&reader)
        }
    }
}
