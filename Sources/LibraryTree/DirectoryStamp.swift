import Foundation

/// What `stat` says of a folder that changes whenever an entry is added to it, removed from it
/// or renamed in it: its identity (device, inode) and its modification and status-change times.
/// A folder whose stamp is unchanged holds the same names as when it was listed.
package struct DirectoryStamp: Sendable, Hashable {
    package let device: UInt64
    package let inode: UInt64
    /// Nanoseconds since 1970.
    package let modificationTime: Int64
    /// Nanoseconds since 1970.
    package let statusChangeTime: Int64

    package init(device: UInt64, inode: UInt64, modificationTime: Int64, statusChangeTime: Int64) {
        self.device = device
        self.inode = inode
        self.modificationTime = modificationTime
        self.statusChangeTime = statusChangeTime
    }

    package init(_ status: stat) {
        self.init(device: UInt64(status.st_dev), inode: UInt64(status.st_ino),
                  modificationTime: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec),
                  statusChangeTime: Int64(status.st_ctim.tv_sec) * 1_000_000_000 + Int64(status.st_ctim.tv_nsec))
    }

    /// Whether a listing made at `listedAt` (nanoseconds since 1970) can be trusted while the
    /// stamp stays the same. File times advance in coarse ticks: a change made in the same tick
    /// as the listing, just after it, would leave the stamp as it was. A listing made more than
    /// a second after the folder's last change cannot have been overtaken that way.
    package func isSettled(listedAt: Int64) -> Bool {
        max(modificationTime, statusChangeTime) < listedAt - 1_000_000_000
    }
}
