import Foundation

/// Where an original is in its library, and which version of it the library knows: all it
/// takes to open it confined (``open()``).
///
/// A library hands this out instead of a path so that no reader opens an original by a path
/// that a symbolic link swapped in since the library looked could lead out of it, and none
/// reads a version the library does not know.
public struct OriginalLocation: Sendable, Hashable {
    /// The library folder the original must be in, wherever its links lead.
    public var root: URL
    /// The original's path from ``root``, components joined with `/`.
    public var relativePath: String
    /// The size the library knows, in bytes.
    public var byteSize: Int64
    /// The modification time the library knows, in nanoseconds since 1970, as `stat` gives it.
    public var modificationTime: Int64
    /// The store's fingerprint of the version the library knows (a bucket's: the object's size
    /// and entity tag), when the library gave it: a fetch asks for that version and no other.
    public var fingerprint: String?

    /// The original at `relativePath` under `root`, of the version the library knows.
    public init(root: URL, relativePath: String, byteSize: Int64, modificationTime: Int64) {
        self.root = root
        self.relativePath = relativePath
        self.byteSize = byteSize
        self.modificationTime = modificationTime
    }

    /// The file at `url` as it is now, confined to its own folder: for a file that is no part
    /// of a library (a benchmark's, a test's); `nil` when there is no file there.
    public init?(currentFileAt url: URL) {
        var status = stat()
        guard stat(url.path, &status) == 0 else { return nil }
        self.init(root: url.deletingLastPathComponent(), relativePath: url.lastPathComponent, byteSize: Int64(status.st_size),
                  modificationTime: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec))
    }

    /// The original's file name (the last component of ``relativePath``).
    public var filename: String { (relativePath as NSString).lastPathComponent }

    /// Opens the original, confined to ``root``: its links are followed only while they end
    /// inside the root, and it must be a regular file of the version the library knows.
    ///
    /// - Returns: The open file; read it through its descriptor or ``OpenOriginal/url``, never
    ///   through the library path again.
    /// - Throws: ``LibraryError/originalUnavailable(file:)`` when the file is gone, leads out of
    ///   the library, is no regular file or is another version: all alike, naming only the file.
    public func open() throws -> OpenOriginal {
        guard let original = OpenOriginal(self) else { throw LibraryError.originalUnavailable(file: filename) }
        return original
    }
}
