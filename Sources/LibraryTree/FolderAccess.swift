import AssetsKit
import Foundation

/// The access a library folder grants this process, found by really trying.
package enum FolderAccess {
    /// Really tries the access a library needs: reads the folder (denied if that fails), then
    /// asks whether it may be written (authorized) or not (restricted, read-only).
    package static func probe(_ root: URL) -> AuthorizationStatus {
        guard let handle = opendir(root.path) else { return .denied }
        _ = readdir(handle)
        closedir(handle)
        return isWritable(root) ? .authorized : .restricted
    }

    /// What ``probe(_:)`` finds, with the reason of a denial.
    package static func finding(_ root: URL) -> (status: AuthorizationStatus, reason: String?) {
        let status = probe(root)
        return (status, status == .denied ? "the folder does not exist or cannot be read" : nil)
    }

    /// Whether this process may write into the folder `root`: its mode lets someone write it
    /// (so a folder made read-only with `chmod a-w` stays read-only for root too, whom `access`
    /// lets write anything) and `access` agrees (a read-only mount, the process's own rights).
    package static func isWritable(_ root: URL) -> Bool {
        var status = stat()
        guard stat(root.path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { return false }
        let writeBits = mode_t(S_IWUSR | S_IWGRP | S_IWOTH)
        return status.st_mode & writeBits != 0 && access(root.path, W_OK) == 0
    }
}
