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
    /// A tag of this version of the file's bytes where it is kept, when the store has one (an
    /// S3 object's entity tag); `nil` for a file on this machine.
    package let contentTag: String?

    /// The file's URL, made when asked for (a walk of a large tree makes many entries).
    package var url: URL { URL(fileURLWithPath: rootPath + "/" + relativePath, isDirectory: false) }
    package var filename: String {
        guard let slash = relativePath.utf8.lastIndex(of: UInt8(ascii: "/")) else { return relativePath }
        return String(relativePath[relativePath.utf8.index(after: slash)...])
    }

    /// The entry for a regular media file; `nil` for anything else.
    package init?(relativePath: String, root: URL, status: stat) {
        guard (status.st_mode & S_IFMT) == S_IFREG,
              let type = MediaFileType.mediaType(ofFileNamed: (relativePath as NSString).lastPathComponent) else { return nil }
        self.init(relativePath: relativePath, directory: (relativePath as NSString).deletingLastPathComponent, rootPath: root.path,
                  mediaType: type, byteSize: Int64(status.st_size),
                  modificationTime: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec))
    }

    /// An entry as a cache recorded it, or as a store elsewhere listed it (with its `contentTag`).
    package init(relativePath: String, directory: String, rootPath: String, mediaType: MediaType, byteSize: Int64, modificationTime: Int64,
                 contentTag: String? = nil) {
        self.relativePath = relativePath
        self.directory = directory
        self.rootPath = rootPath
        self.mediaType = mediaType
        self.byteSize = byteSize
        self.modificationTime = modificationTime
        self.contentTag = contentTag
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
    /// The media files with what `stat` says of them (a walk with ``FileDetail/status``).
    package var files: [FileEntry] = []
    /// The media files by name only (a walk with ``FileDetail/nameOnly``).
    package var names: [NamedFile] = []
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

/// A media file found by its name, its size and times not read (a walk with ``FileDetail/nameOnly``).
package struct NamedFile: Sendable, Hashable {
    package let name: String
    /// The type its name says (``MediaFileType/mediaType(ofFileNamed:)``).
    package let mediaType: MediaType

    package init(name: String, mediaType: MediaType) {
        self.name = name
        self.mediaType = mediaType
    }
}

/// What a walk learns of each file of a folder it lists.
package enum FileDetail: Sendable {
    /// `stat` of every file: its size and modification time (``DirectoryListing/files``).
    case status
    /// Only names and the entry types `readdir` gives (``DirectoryListing/names``): a file is
    /// stat'ed only when `readdir` cannot tell what it is (a symbolic link, an unknown type).
    /// Listing a folder of many files this way costs no call per file.
    case nameOnly
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
    /// - Parameters:
    ///   - reuse: Gives back earlier listings of unchanged folders.
    ///   - detail: What to learn of the files of a folder listed afresh, by its path (default:
    ///     ``FileDetail/status`` everywhere).
    /// - Throws: ``LibraryError/accessDenied(path:reason:)`` when the root is not a readable folder.
    package func directories(reusing reuse: ListingReuse? = nil,
                             detail: @escaping @Sendable (_ path: String) -> FileDetail = { _ in .status }) throws -> FolderWalk {
        var rootStatus = stat()
        guard stat(root.path, &rootStatus) == 0, (rootStatus.st_mode & S_IFMT) == S_IFDIR,
              let links = SymbolicLinkPolicy(root: root), let handle = opendir(root.path) else {
            throw LibraryError.accessDenied(path: root.path, reason: "not a readable folder")
        }
        closedir(handle)
        return FolderWalk(root: root, rootStatus: rootStatus, links: links, reuse: reuse, detail: detail)
    }
}

