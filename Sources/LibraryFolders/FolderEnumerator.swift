import AssetsKit
import Foundation
import MediaProbing

/// A media file found in the tree, with what `stat` says of it.
package struct FileEntry: Sendable, Hashable {
    /// Path from the library root, components joined with `/`.
    package let relativePath: String
    /// The directory holding the file, relative to the root (empty for the root itself).
    package let directory: String
    package let url: URL
    package let mediaType: MediaType
    package let byteSize: Int64
    package let modificationDate: Date
    /// The modification time in nanoseconds since 1970, exactly as `stat` gives it.
    package let modificationTime: Int64

    package var filename: String { url.lastPathComponent }

    /// The entry for a regular media file; `nil` for anything else.
    package init?(relativePath: String, root: URL, status: stat) {
        guard (status.st_mode & S_IFMT) == S_IFREG,
              let type = MediaFileType.mediaType(ofFileNamed: (relativePath as NSString).lastPathComponent) else { return nil }
        self.relativePath = relativePath
        self.directory = (relativePath as NSString).deletingLastPathComponent
        self.url = URL(fileURLWithPath: root.path + "/" + relativePath, isDirectory: false)
        self.mediaType = type
        self.byteSize = Int64(status.st_size)
        self.modificationTime = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
        self.modificationDate = Date(timeIntervalSince1970: Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9)
    }

    /// The entry for the media file at `relativePath` as it is on disk now, if it still is one.
    /// A path through a symbolic link that leads out of the library is not one (``SymbolicLinkPolicy``).
    package static func current(at relativePath: String, root: URL) -> FileEntry? {
        let path = root.path + "/" + relativePath
        guard SymbolicLinkPolicy(root: root)?.contains(path) == true else { return nil }
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return FileEntry(relativePath: relativePath, root: root, status: status)
    }
}

/// The media files directly in one folder of the tree, and what was passed over there.
package struct DirectoryListing: Sendable {
    /// The folder, relative to the root (empty for the root itself).
    package let path: String
    package var files: [FileEntry] = []
    package var skipped: [SkippedFile] = []
    /// `false` when the folder could not be read: its files are unknown, not gone.
    package var isComplete = true
}

/// Walks a folder tree live with POSIX calls, so that nothing in the tree stops the walk: an
/// unreadable folder, a file deleted mid-walk, a symbolic-link loop, a name that is not UTF-8,
/// a FIFO named like a photo. Each of those is reported and passed over. Hidden files and
/// folders (a leading dot, e.g. an index folder) are not part of the library. Symbolic links
/// are followed only inside the root (``SymbolicLinkPolicy``); one leading out is reported and
/// passed over. A walk in a cancelled task stops at the next folder.
package struct FolderEnumerator {
    package let root: URL

    package init(root: URL) {
        self.root = root
    }

    /// Every media file under the root, in directory order, and what was passed over.
    /// - Throws: `CancellationError` when the task is cancelled during the walk.
    package func enumerate() throws -> (files: [FileEntry], skipped: [SkippedFile]) {
        var walk = try directories()
        var files: [FileEntry] = []
        var skipped: [SkippedFile] = []
        while let listing = walk.next() {
            try Task.checkCancellation()
            files += listing.files
            skipped += listing.skipped
        }
        return (files, skipped)
    }

    /// A walk that lists one folder at a time, so a caller never holds the whole tree.
    /// - Throws: ``LibraryError/accessDenied(path:reason:)`` when the root is not a readable folder.
    package func directories() throws -> FolderWalk {
        var rootStatus = stat()
        guard stat(root.path, &rootStatus) == 0, (rootStatus.st_mode & S_IFMT) == S_IFDIR,
              let links = SymbolicLinkPolicy(root: root), let handle = opendir(root.path) else {
            throw LibraryError.accessDenied(path: root.path, reason: "not a readable folder")
        }
        closedir(handle)
        return FolderWalk(root: root, rootStatus: rootStatus, links: links)
    }
}

/// A depth-first walk of a folder tree, one folder per step, in name order.
package struct FolderWalk: Sendable {
    private let root: URL
    private let links: SymbolicLinkPolicy
    private var visited: Set<DirectoryKey>
    private var pending: [String] = [""]

    fileprivate init(root: URL, rootStatus: stat, links: SymbolicLinkPolicy) {
        self.root = root
        self.links = links
        self.visited = [DirectoryKey(rootStatus)]
    }

    /// The next folder's listing; `nil` when the walk is over.
    package mutating func next() -> DirectoryListing? {
        guard let directory = pending.popLast() else { return nil }
        var listing = DirectoryListing(path: directory)
        let directoryPath = directory.isEmpty ? root.path : root.path + "/" + directory
        guard let handle = opendir(directoryPath) else {
            listing.skipped.append(SkippedFile(path: directory, reason: "cannot open folder: \(Self.lastErrorText())"))
            listing.isComplete = false
            return listing
        }
        defer { closedir(handle) }
        var subdirectories: [String] = []
        while let entry = readdir(handle) {
            guard let name = Self.name(of: entry) else {
                listing.skipped.append(SkippedFile(path: Self.join(directory, Self.lossyName(of: entry)),
                                                   reason: "the file name is not valid UTF-8; rename it to include it"))
                continue
            }
            if name.hasPrefix(".") { continue }
            let relativePath = Self.join(directory, name)
            let path = root.path + "/" + relativePath
            var status = stat()
            guard lstat(path, &status) == 0 else {
                listing.skipped.append(SkippedFile(path: relativePath, reason: "cannot read: \(Self.lastErrorText())"))
                continue
            }
            if (status.st_mode & S_IFMT) == S_IFLNK {
                if let refusal = links.refusal(ofLinkAt: path) {
                    listing.skipped.append(SkippedFile(path: relativePath, reason: refusal))
                    continue
                }
                guard stat(path, &status) == 0 else {
                    listing.skipped.append(SkippedFile(path: relativePath, reason: "cannot read: \(Self.lastErrorText())"))
                    continue
                }
            }
            switch status.st_mode & S_IFMT {
            case S_IFDIR:
                if visited.insert(DirectoryKey(status)).inserted {
                    subdirectories.append(relativePath)
                } else {
                    listing.skipped.append(SkippedFile(path: relativePath, reason: "folder already visited (a symbolic-link loop)"))
                }
            case S_IFREG:
                if let file = FileEntry(relativePath: relativePath, root: root, status: status) { listing.files.append(file) }
            default:
                listing.skipped.append(SkippedFile(path: relativePath, reason: "not a regular file"))
            }
        }
        pending.append(contentsOf: subdirectories.sorted().reversed())
        return listing
    }

    private struct DirectoryKey: Hashable, Sendable {
        let device: UInt64
        let inode: UInt64
        init(_ status: stat) {
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }

    private static func join(_ directory: String, _ name: String) -> String {
        directory.isEmpty ? name : directory + "/" + name
    }

    private static func nameBytes(of entry: UnsafeMutablePointer<dirent>) -> [UInt8] {
        withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
    }

    private static func name(of entry: UnsafeMutablePointer<dirent>) -> String? {
        String(validating: nameBytes(of: entry), as: UTF8.self)
    }

    private static func lossyName(of entry: UnsafeMutablePointer<dirent>) -> String {
        String(decoding: nameBytes(of: entry), as: UTF8.self)
    }

    private static func lastErrorText() -> String {
        String(cString: strerror(errno))
    }
}
