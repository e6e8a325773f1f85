import Foundation
import Synchronization

/// The cache files this process read or wrote, decoded, so that a second library over the same
/// cache file (another open of the same folder) does not decode it again. An entry is used only
/// while the file on disk is the one it was made from (device, inode, size, modification time).
enum SharedCacheFiles {
    /// What tells one cache file from another.
    struct Identity: Hashable {
        let device: UInt64
        let inode: UInt64
        let size: Int64
        let modificationTime: Int64
    }

    private struct Entry {
        let identity: Identity
        let rootPath: String
        let folders: [String: CachedFolder]
    }

    private static let entries = Mutex<[String: Entry]>([:])

    /// The folders decoded from the file at `url` for `rootPath`, if it is unchanged since.
    static func folders(of url: URL, rootPath: String) -> [String: CachedFolder]? {
        guard let identity = identity(of: url) else { return nil }
        return entries.withLock { entries in
            guard let entry = entries[url.path], entry.identity == identity, entry.rootPath == rootPath else { return nil }
            return entry.folders
        }
    }

    /// Keeps `folders` as what the file at `url`, as it is now (`identity`), holds.
    static func remember(_ folders: [String: CachedFolder], of url: URL, identity: Identity, rootPath: String) {
        entries.withLock { $0[url.path] = Entry(identity: identity, rootPath: rootPath, folders: folders) }
    }

    static func identity(of url: URL) -> Identity? {
        var status = stat()
        guard stat(url.path, &status) == 0 else { return nil }
        return Identity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
                        modificationTime: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec))
    }
}
