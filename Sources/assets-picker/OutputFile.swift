import AssetsKit
import Foundation

/// Where a command writes a file the person named (`image --out`): a new file, or a regular
/// file that is replaced whole by an atomic rename. Anything else at that path — a device such
/// as `/dev/full`, a FIFO, a socket, a directory or a symbolic link — is refused before a byte
/// is written, so a rename never replaces it and never follows a link elsewhere.
struct OutputFile {
    let url: URL

    /// Writes `data` under a hidden temporary name beside the destination, then renames it into place.
    /// - Throws: ``LibraryError/unreadableFile(path:reason:)`` when the path is not a new or
    ///   regular file, or the write fails.
    func write(_ data: Data) throws {
        try checkReplaceable()
        let folder = url.deletingLastPathComponent()
        // Short whatever the name's length: a 255-byte name is legal, and a longer one is not.
        let temporary = folder.appendingPathComponent(".image-\(UUID().uuidString).partial")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw failure("cannot write beside it: \(String(cString: strerror(errno)))") }
        var written = 0
        let failed: Int32? = data.withUnsafeBytes { bytes in
            while written < bytes.count {
                let count = Foundation.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
                if count < 0 { if errno == EINTR { continue }; return errno }
                written += count
            }
            return nil
        }
        let closed = close(descriptor) == 0 ? nil : errno
        if let error = failed ?? closed {
            unlink(temporary.path)
            throw failure("cannot write the image: \(String(cString: strerror(error)))")
        }
        // Checked again just before the rename: what stands there now is what gets replaced.
        do { try checkReplaceable() } catch { unlink(temporary.path); throw error }
        guard rename(temporary.path, url.path) == 0 else {
            let error = errno
            unlink(temporary.path)
            throw failure("cannot put the image in place: \(String(cString: strerror(error)))")
        }
    }

    /// Refuses anything at the path but a regular file (a symbolic link is not followed); a
    /// command checks before its work, so a refusal costs nothing.
    func checkReplaceable() throws {
        var status = stat()
        guard lstat(url.path, &status) == 0 else {
            guard errno == ENOENT else { throw failure("cannot look at it: \(String(cString: strerror(errno)))") }
            let folder = url.deletingLastPathComponent().path
            var folderStatus = stat()
            guard stat(folder, &folderStatus) == 0, folderStatus.st_mode & S_IFMT == S_IFDIR else {
                throw failure("the folder \(folder) does not exist; make it first, or give a path in a folder that does")
            }
            return
        }
        let kind: String
        switch status.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: kind = "a directory"
        case S_IFLNK: kind = "a symbolic link"
        case S_IFCHR, S_IFBLK: kind = "a device"
        case S_IFIFO: kind = "a FIFO"
        case S_IFSOCK: kind = "a socket"
        default: kind = "not a regular file"
        }
        throw failure("it is \(kind); give a new file or a regular file to replace")
    }

    private func failure(_ reason: String) -> LibraryError {
        .unreadableFile(path: url.path, reason: reason)
    }
}
