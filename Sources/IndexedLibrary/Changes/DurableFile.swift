import AssetsKit
import Foundation

/// File writes that survive a crash: a new file is written under a name nobody else uses,
/// flushed to disk, then given its final name without ever replacing an existing file.
enum DurableFile {
    /// Writes `data` to a new file at `url` (which must not exist) and flushes it to disk.
    static func store(_ data: Data, at url: URL) throws {
        try withNewFile(at: url) { fd in
            try data.withUnsafeBytes { buffer in try writeAll(buffer, to: fd, path: url.path) }
        }
    }

    /// Copies the file at `source` into a new file at `url` (which must not exist), flushed to disk.
    static func copy(_ source: URL, to url: URL) throws {
        let input = open(source.path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw LibraryError.unreadableFile(path: source.path, reason: String(cString: strerror(errno))) }
        defer { close(input) }
        try withNewFile(at: url) { output in
            var buffer = [UInt8](repeating: 0, count: 1 << 20)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
                if count < 0 { throw LibraryError.unreadableFile(path: source.path, reason: String(cString: strerror(errno))) }
                if count == 0 { return }
                try buffer.withUnsafeBytes { try writeAll(UnsafeRawBufferPointer(rebasing: $0.prefix(count)), to: output, path: url.path) }
            }
        }
    }

    /// Gives the file at `temporary` the first free name of `names` in `folder` (a hard link,
    /// which never replaces a file, then the temporary name is removed) and flushes the folder.
    /// - Returns: The name taken.
    static func publish(_ temporary: URL, in folder: URL, names: some Sequence<String>) throws -> String {
        for name in names {
            let target = folder.appendingPathComponent(name).path
            if link(temporary.path, target) == 0 {
                unlink(temporary.path)
                try sync(folder: folder)
                try sync(folder: temporary.deletingLastPathComponent())
                return name
            }
            guard errno == EEXIST else { throw failure(target) }
        }
        throw LibraryError.invalidChange("no free file name in \(folder.path)")
    }

    private static func withNewFile(at url: URL, _ body: (Int32) throws -> Void) throws {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure(url.path) }
        do {
            try body(fd)
            guard fsync(fd) == 0 else { throw failure(url.path) }
            close(fd)
        } catch {
            close(fd)
            unlink(url.path)
            throw error
        }
    }

    private static func writeAll(_ buffer: UnsafeRawBufferPointer, to fd: Int32, path: String) throws {
        var written = 0
        while written < buffer.count {
            let count = write(fd, buffer.baseAddress! + written, buffer.count - written)
            guard count > 0 else { throw failure(path) }
            written += count
        }
    }

    private static func sync(folder: URL) throws {
        let fd = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw failure(folder.path) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw failure(folder.path) }
    }

    private static func failure(_ path: String) -> LibraryError {
        LibraryError.invalidChange("cannot write \(path): \(String(cString: strerror(errno)))")
    }
}
