import Foundation

/// An original as its ``OriginalsStore`` keeps it: where, how big, which version.
public struct StoredOriginal: Sendable, Hashable {
    /// The stored path, relative to the library root, components joined with `/`.
    public var path: String
    public var byteSize: Int64
    /// When the bytes last changed.
    public var modificationDate: Date
    /// The same moment in nanoseconds since 1970, exactly as the store gives it (the index
    /// compares versions with it).
    public var modificationTime: Int64

    /// An original stored at `path`.
    public init(path: String, byteSize: Int64, modificationDate: Date, modificationTime: Int64) {
        self.path = path
        self.byteSize = byteSize
        self.modificationDate = modificationDate
        self.modificationTime = modificationTime
    }

    /// The file name (the last component of ``path``).
    public var filename: String { (path as NSString).lastPathComponent }
    /// The folder holding the original, relative to the root (empty for the root itself).
    public var folder: String { (path as NSString).deletingLastPathComponent }
}
