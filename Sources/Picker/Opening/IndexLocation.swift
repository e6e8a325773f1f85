import Foundation

/// Whether an index file can live at a place: it exists already, or the nearest existing
/// folder on its path is a folder this process may write in.
///
/// Permission bits are honoured even for the superuser: a folder marked read-only (no write
/// bit for its owner, group or others as they apply to this process) is treated as read-only
/// media, although root could write into it anyway.
public enum IndexLocation {
    /// Whether an index exists at `url` (a regular file).
    public static func exists(at url: URL) -> Bool {
        var info = stat()
        return stat(url.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Whether an index could be created at `url`: its folder exists and is writable, or can
    /// be made in the nearest existing, writable folder above it.
    public static func canCreate(at url: URL) -> Bool {
        var folder = url.deletingLastPathComponent().standardizedFileURL
        while true {
            var info = stat()
            if stat(folder.path, &info) == 0 {
                return (info.st_mode & S_IFMT) == S_IFDIR && isWritable(folder.path, info)
            }
            guard errno == ENOENT, folder.path != "/" else { return false }
            folder = folder.deletingLastPathComponent()
        }
    }

    private static func isWritable(_ path: String, _ info: stat) -> Bool {
        guard access(path, W_OK) == 0 else { return false }
        let bit: mode_t
        if info.st_uid == geteuid() {
            bit = S_IWUSR
        } else if info.st_gid == getegid() {
            bit = S_IWGRP
        } else {
            bit = S_IWOTH
        }
        return info.st_mode & bit != 0
    }
}
