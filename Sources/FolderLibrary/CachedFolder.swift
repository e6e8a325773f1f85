import AssetsKit
import Foundation
import LibraryFolders
import MediaProbing

/// One folder as last listed, with what is known of each of its media files.
struct CachedFolder: Sendable {
    /// Its listing: path, stamp, subfolders and what was passed over (its files are in `files`).
    var listing: DirectoryListing
    /// When it was listed, in nanoseconds since 1970.
    var listedAt: Int64
    /// Its media files, as listed.
    var files: [CachedFile]

    /// The path of the file at `index`, from the library root.
    func relativePath(of index: Int) -> String {
        listing.path.isEmpty ? files[index].name : listing.path + "/" + files[index].name
    }

    /// The file at `index` as `stat` last saw it; `nil` while it was only listed by name.
    func entry(_ index: Int, rootPath: String) -> FileEntry? {
        let file = files[index]
        guard let version = file.version else { return nil }
        return FileEntry(relativePath: relativePath(of: index), directory: listing.path, rootPath: rootPath, mediaType: file.mediaType,
                         byteSize: version.byteSize, modificationTime: version.modificationTime)
    }
}

/// A media file of a folder and what is known of it.
struct CachedFile: Sendable {
    let name: String
    /// The type its name says.
    let mediaType: MediaType
    /// Its size and modification time; `nil` while it was only listed by name (a folder seen for
    /// the first time is listed without a call per file: see ``FileDetail/nameOnly``).
    var version: FileVersion?
    /// Its metadata, or why it could not be read; `nil` while unread.
    var outcome: FolderCache.Outcome?
}

/// What tells one version of a file from another: its size and modification time.
struct FileVersion: Sendable, Hashable {
    let byteSize: Int64
    /// Nanoseconds since 1970, exactly as `stat` gives it.
    let modificationTime: Int64

    init(byteSize: Int64, modificationTime: Int64) {
        self.byteSize = byteSize
        self.modificationTime = modificationTime
    }

    init(_ file: FileEntry) {
        self.init(byteSize: file.byteSize, modificationTime: file.modificationTime)
    }

    init(_ status: stat) {
        self.init(byteSize: Int64(status.st_size),
                  modificationTime: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec))
    }
}
