import Foundation

/// An original as its `OriginalsStore` keeps it: where, how big, which version.
package struct StoredOriginal: Sendable, Hashable {
    /// The stored path, relative to the library root, components joined with `/`.
    package var path: String
    package var byteSize: Int64
    /// When the bytes last changed.
    package var modificationDate: Date
    /// The same moment in nanoseconds since 1970, exactly as the store gives it (the index
    /// compares versions with it).
    package var modificationTime: Int64

    /// An original stored at `path`.
    package init(path: String, byteSize: Int64, modificationDate: Date, modificationTime: Int64) {
        self.path = path
        self.byteSize = byteSize
        self.modificationDate = modificationDate
        self.modificationTime = modificationTime
    }

    /// The file name (the last component of ``path``).
    package var filename: String { (path as NSString).lastPathComponent }
    /// The folder holding the original, relative to the root (empty for the root itself).
    package var folder: String { (path as NSString).deletingLastPathComponent }
}
