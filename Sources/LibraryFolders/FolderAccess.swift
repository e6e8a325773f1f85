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
        return access(root.path, W_OK) == 0 ? .authorized : .restricted
    }
}
