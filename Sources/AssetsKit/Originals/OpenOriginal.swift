import Foundation

/// An original opened confined to its library (``OriginalLocation/open()``): the descriptor it
/// holds is the very file that was checked, and closes when this is released.
///
/// Everything that reads the original reads this descriptor: with `pread`, or through ``url``,
/// `/proc/self/fd/N`, which code that opens by path (libvips, the EXIF readers) opens as this
/// same file, never by resolving the library path again; a child process (ffmpeg, ffprobe)
/// opens ``urlForChildProcess``. Decisions by name (the file type, messages) use ``filename``.
/// Keep it alive until the last read is done.
public final class OpenOriginal: Sendable {
    /// The open descriptor (read-only); closed when this is released.
    public let descriptor: Int32
    /// The original's file name in the library, for decisions by extension and for messages.
    public let filename: String
    /// Where the file is, every link resolved: inside the library's root.
    public let resolvedPath: String
    /// The size, in bytes.
    public let byteSize: Int64
    /// The modification time in nanoseconds since 1970.
    public let modificationTime: Int64
    /// The device and inode of the file: what it is, whatever its name.
    public let device: UInt64
    /// The inode of the file on ``device``.
    public let inode: UInt64

    /// `/proc/self/fd/N`: opened by this process, it opens this same file (the magic link is
    /// not resolved again through the library).
    public var url: URL { URL(fileURLWithPath: "/proc/self/fd/\(descriptor)", isDirectory: false) }
    /// `/proc/<this process>/fd/N`: the same for a child process, which has descriptors of its own.
    public var urlForChildProcess: URL {
        URL(fileURLWithPath: "/proc/\(getpid())/fd/\(descriptor)", isDirectory: false)
    }

    /// Opens the original at `location`; `nil` when it is gone, unreadable, no regular file,
    /// another version than the location says, or when it (or a link on its way) leads out of
    /// the root.
    ///
    /// The path is resolved once, without opening the file (`O_PATH`: a FIFO or a device
    /// swapped in is never opened), then what it resolved to is checked on that handle — its
    /// real place, from the kernel, and its `fstat` — and only then opened for reading, through
    /// the handle, so that nothing swapped in after the check is opened instead.
    init?(_ location: OriginalLocation) {
        guard let root = Self.resolve(location.root.path) else { return nil }
        let handle = open(root + "/" + location.relativePath, Self.pathOnly | O_CLOEXEC)
        guard handle >= 0 else { return nil }
        defer { close(handle) }
        var status = stat()
        guard let real = Self.path(of: handle), Self.isInside(real, root: root),
              fstat(handle, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG,
              Int64(status.st_size) == location.byteSize,
              Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec) == location.modificationTime else {
            return nil
        }
        let readable = open("/proc/self/fd/\(handle)", O_RDONLY | O_CLOEXEC)
        guard readable >= 0 else { return nil }
        descriptor = readable
        filename = location.filename
        resolvedPath = real
        byteSize = location.byteSize
        modificationTime = location.modificationTime
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }

    deinit {
        close(descriptor)
    }

    /// Linux's `O_PATH` (the same on every architecture Swift runs on), which Glibc's module
    /// does not bring into Swift.
    private static let pathOnly: Int32 = 0o10000000

    /// Whether `path` is `root` or under it.
    private static func isInside(_ path: String, root: String) -> Bool {
        root == "/" || path == root || path.hasPrefix(root + "/")
    }

    /// Where the open `descriptor` is, as the kernel says.
    private static func path(of descriptor: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/fd/\(descriptor)", &buffer, buffer.count - 1)
        guard length > 0, length < buffer.count - 1 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func resolve(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
