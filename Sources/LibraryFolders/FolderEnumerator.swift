import AssetsKit
import Foundation
import MediaProbing

/// A media file found in the tree, with what `stat` says of it.
package struct FileEntry: Sendable, Hashable {
    /// Path from the library root, components joined with `/`.
    package let relativePath: String
    /// The directory holding the file, relative to the root (empty for the root itself).
    package let directory: String
    /// The library root's path, without a trailing `/`.
    package let rootPath: String
    package let mediaType: MediaType
    package let byteSize: Int64
    package let modificationDate: Date
    /// The modification time in nanoseconds since 1970, exactly as `stat` gives it.
    package let modificationTime: Int64

    /// The file's URL, made when asked for (a walk of a large tree makes many entries).
    package var url: URL { URL(fileURLWithPath: rootPath + "/" + relativePath, isDirectory: false) }
    package var filename: String { (relativePath as NSString).lastPathComponent }

    /// The entry for a regular media file; `nil` for anything else.
    package init?(relativePath: String, root: URL, status: stat) {
        guard (status.st_mode & S_IFMT) == S_IFREG,
              let type = MediaFileType.mediaType(ofFileNamed: (relativePath as NSString).lastPathComponent) else { return nil }
        self.init(relativePath: relativePath, directory: (relativePath as NSString).deletingLastPathComponent, rootPath: root.path,
                  mediaType: type, byteSize: Int64(status.st_size),
                  modificationTime: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec))
    }

    /// An entry as a cache recorded it.
    package init(relativePath: String, directory: String, rootPath: String, mediaType: MediaType, byteSize: Int64, modificationTime: Int64) {
        self.relativePath = relativePath
        self.directory = directory
        self.rootPath = rootPath
        self.mediaType = mediaType
        self.byteSize = byteSize
        self.modificationTime = modificationTime
        self.modificationDate = Date(timeIntervalSince1970: Double(modificationTime / 1_000_000_000)
                                     + Double(modificationTime % 1_000_000_000) / 1e9)
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
    /// The folders directly in it, as listed (before the walk passes over any already visited).
    package var subdirectories: [Subdirectory] = []
    /// The folder's stamp, taken just before it was listed; `nil` when it could not be read.
    package var stamp: DirectoryStamp?
    /// `false` when the folder could not be read: its files are unknown, not gone.
    package var isComplete = true

    package init(path: String) {
        self.path = path
    }

    /// A folder inside the listed one.
    package struct Subdirectory: Sendable, Hashable {
        /// Path from the library root.
        package let path: String
        package let device: UInt64
        package let inode: UInt64

        package init(path: String, device: UInt64, inode: UInt64) {
            self.path = path
            self.device = device
            self.inode = inode
        }
    }
}

/// Gives back an earlier listing of a folder whose stamp is the one given, so that a walk lists
/// only the folders that changed; `nil` lists the folder afresh.
package typealias ListingReuse = @Sendable (_ path: String, _ stamp: DirectoryStamp) -> DirectoryListing?

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
    package func directories(reusing reuse: ListingReuse? = nil) throws -> FolderWalk {
        var rootStatus = stat()
        guard stat(root.path, &rootStatus) == 0, (rootStatus.st_mode & S_IFMT) == S_IFDIR,
              let links = SymbolicLinkPolicy(root: root), let handle = opendir(root.path) else {
            throw LibraryError.accessDenied(path: root.path, reason: "not a readable folder")
        }
        closedir(handle)
        return FolderWalk(root: root, rootStatus: rootStatus, links: links, reuse: reuse)
    }
}

/// A depth-first walk of a folder tree, one folder per step, in name order.
package struct FolderWalk: Sendable {
    private let root: URL
    private let links: SymbolicLinkPolicy
    private var visited: Set<DirectoryKey>
    private var pending: [String] = [""]
    private let reuse: ListingReuse?

    fileprivate init(root: URL, rootStatus: stat, links: SymbolicLinkPolicy, reuse: ListingReuse?) {
        self.root = root
        self.links = links
        self.visited = [DirectoryKey(device: UInt64(rootStatus.st_dev), inode: UInt64(rootStatus.st_ino))]
        self.reuse = reuse
    }

    /// The next folder's listing; `nil` when the walk is over. A folder already visited (a
    /// symbolic-link loop) is passed over and reported in the listing of the folder holding it.
    package mutating func next() -> DirectoryListing? {
        guard let directory = pending.popLast() else { return nil }
        let directoryPath = directory.isEmpty ? root.path : root.path + "/" + directory
        var status = stat()
        let stamp = stat(directoryPath, &status) == 0 ? DirectoryStamp(status) : nil
        var listing = stamp.flatMap { stamp in reuse?(directory, stamp) } ?? list(directory, at: directoryPath, stamp: stamp)
        var accepted: [String] = []
        for subdirectory in listing.subdirectories {
            if visited.insert(DirectoryKey(device: subdirectory.device, inode: subdirectory.inode)).inserted {
                accepted.append(subdirectory.path)
            } else {
                listing.skipped.append(SkippedFile(path: subdirectory.path, reason: "folder already visited (a symbolic-link loop)"))
            }
        }
        pending.append(contentsOf: accepted.sorted().reversed())
        return listing
    }

    /// The folder's entries as they are now.
    private func list(_ directory: String, at directoryPath: String, stamp: DirectoryStamp?) -> DirectoryListing {
        var listing = DirectoryListing(path: directory)
        listing.stamp = stamp
        guard let handle = opendir(directoryPath) else {
            listing.skipped.append(SkippedFile(path: directory, reason: "cannot open folder: \(Self.lastErrorText())"))
            listing.isComplete = false
            listing.stamp = nil
            return listing
        }
        defer { closedir(handle) }
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
                listing.subdirectories.append(DirectoryListing.Subdirectory(path: relativePath, device: UInt64(status.st_dev),
                                                                            inode: UInt64(status.st_ino)))
            case S_IFREG:
                if let file = FileEntry(relativePath: relativePath, root: root, status: status) { listing.files.append(file) }
            default:
                listing.skipped.append(SkippedFile(path: relativePath, reason: "not a regular file"))
            }
        }
        return listing
    }

    private struct DirectoryKey: Hashable, Sendable {
        let device: UInt64
        let inode: UInt64
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
