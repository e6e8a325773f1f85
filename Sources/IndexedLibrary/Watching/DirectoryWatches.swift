import Foundation
import LibraryTree

/// The folders of a library tree that an inotify descriptor watches, by watch descriptor.
///
/// inotify watches one folder at a time, so every folder of the tree gets a watch, and a folder
/// that appears later gets one (with its subfolders) when its creation is reported. Folders are
/// found the way scans find them (``FolderEnumerator``): hidden ones are never watched (an
/// index given a place inside the library, `.assets-picker/` say, writes there without events).
struct DirectoryWatches {
    let root: URL
    let inotify: InotifyDescriptor
    /// Relative folder paths ("" for the root) by watch descriptor.
    private(set) var paths: [Int32: String] = [:]

    init(root: URL, inotify: InotifyDescriptor) {
        self.root = root
        self.inotify = inotify
    }

    /// The watch descriptor of the library root, once it is watched.
    var rootWatch: Int32? {
        paths.first { $0.value.isEmpty }?.key
    }

    /// Watches a folder and every folder under it. A folder that vanished or cannot be read
    /// meanwhile is passed over (the next scan says why).
    /// - Parameter directory: The folder's path relative to the root ("" for the whole tree).
    /// - Throws: ``InotifyError/watchLimitReached`` when the system allows no more watches.
    mutating func watchTree(at directory: String) throws {
        let top = directory.isEmpty ? root : root.appendingPathComponent(directory, isDirectory: true)
        guard var walk = try? FolderEnumerator(root: top).directories() else { return }
        while let listing = walk.next() {
            let path = [directory, listing.path].filter { !$0.isEmpty }.joined(separator: "/")
            do {
                let watch = try inotify.addWatch(path.isEmpty ? root.path : root.path + "/" + path)
                paths[watch] = path
            } catch InotifyError.watchLimitReached {
                throw InotifyError.watchLimitReached
            } catch {
                continue
            }
        }
    }

    /// Stops watching a folder and every folder under it (it was moved away or deleted).
    mutating func unwatchTree(at directory: String) {
        for (watch, path) in paths where path == directory || path.hasPrefix(directory + "/") {
            inotify.removeWatch(watch)
            paths[watch] = nil
        }
    }

    /// Forgets a watch the kernel ended (`IN_IGNORED`: its folder is gone).
    mutating func forget(_ watch: Int32) {
        paths[watch] = nil
    }

    /// The relative path of an entry named in an event of `watch`, or `nil` for a watch
    /// that is no longer known.
    func path(of name: String, in watch: Int32) -> String? {
        guard let directory = paths[watch] else { return nil }
        if name.isEmpty { return directory }
        return directory.isEmpty ? name : directory + "/" + name
    }
}
