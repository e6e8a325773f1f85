import AssetsKit
import Foundation
import LibraryTree
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

/// A media file of a folder and what is known of it. Small, so that a pass over every file of
/// a large library touches little memory: what a pass needs (read or not, readable or not,
/// creation date) is held here, the metadata itself boxed, or left encoded in the cache file
/// until an asset is made of it.
struct CachedFile: Sendable {
    /// Whether a file was read, and how that went.
    enum ReadState: UInt8, Sendable {
        case unread, readable, unreadable
    }

    /// Where a read file's outcome is. Only a decoded outcome is boxed: a cache file's entries
    /// are made without an allocation each.
    enum OutcomeSource: Sendable {
        indirect case decoded(FolderCache.Outcome)
        /// Encoded in a cache file, at this offset (see ``FolderCacheFile``).
        case stored(CacheBuffer, Int)
    }

    let name: String
    /// The type its name says.
    let mediaType: MediaType
    /// Its size and modification time; `nil` while it was only listed by name (a folder seen for
    /// the first time is listed without a call per file: see ``FileDetail/nameOnly``).
    var version: FileVersion?
    private(set) var state: ReadState = .unread
    /// The creation date its metadata gives, for a readable file that records one.
    private(set) var creationDate: Date?
    private var source: OutcomeSource?

    init(name: String, mediaType: MediaType, version: FileVersion? = nil, outcome: FolderCache.Outcome? = nil) {
        self.name = name
        self.mediaType = mediaType
        self.version = version
        self.outcome = outcome
    }

    /// An entry of a cache file: the outcome stays encoded until asked for.
    init(name: String, mediaType: MediaType, version: FileVersion?, state: ReadState, creationDate: Date?, stored: OutcomeSource?) {
        self.name = name
        self.mediaType = mediaType
        self.version = version
        self.state = state
        self.creationDate = creationDate
        self.source = stored
    }

    /// Its metadata, or why it could not be read; `nil` while unread.
    var outcome: FolderCache.Outcome? {
        get {
            switch source {
            case nil: nil
            case .decoded(let outcome)?: outcome
            case .stored(let buffer, let offset)?: buffer.outcome(at: offset)
            }
        }
        set {
            source = newValue.map { .decoded($0) }
            switch newValue {
            case nil:
                state = .unread
                creationDate = nil
            case .success(let metadata)?:
                state = .readable
                creationDate = metadata.creationDate
            case .failure?:
                state = .unreadable
                creationDate = nil
            }
        }
    }
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
