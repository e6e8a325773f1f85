import AssetsKit
import Foundation
import LibraryTree
import MediaProbing

/// One walk of the tree: every folder in walk order with its media files and what is known of
/// them. The calls that answer one listing share one snapshot.
struct FolderSnapshot: Sendable {
    var folders: [CachedFolder]
    let libraryName: String
    let rootPath: String

    /// A media file of the snapshot, by position: a readable one, or one not read yet (see
    /// ``FolderLibrary`` on provisional answers).
    struct Item: Sendable {
        let folder: Int
        let file: Int
        /// Its creation date; for a file not read yet, the provisional date it sorts by.
        let creationDate: Date
        let isRead: Bool
    }

    /// The folders shown as albums, ordered by path: every folder that could be read, empty or
    /// not, except the root when it holds no media directly (its files are the camera roll's).
    var albumFolders: [Int] {
        folders.indices.filter { index in
            let folder = folders[index]
            return folder.listing.isComplete && (!folder.listing.path.isEmpty || !folder.files.isEmpty)
        }.sorted { folders[$0].listing.path < folders[$1].listing.path }
    }

    /// The album of the folder at `index`, in the album of the folder above it (none at the top).
    func collection(ofFolder index: Int) -> AssetCollection {
        let folder = folders[index]
        let parent = folder.listing.path.split(separator: "/").dropLast().joined(separator: "/")
        return AssetCollection(id: FolderLibrary.collectionID(ofDirectory: folder.listing.path),
                               title: AssetCollection.directoryTitle(relativePath: folder.listing.path, libraryName: libraryName),
                               kind: .directory, estimatedAssetCount: folder.files.count,
                               parentID: parent.isEmpty ? nil : FolderLibrary.collectionID(ofDirectory: parent))
    }

    /// The folders a collection is made of: all of them for the camera roll. Either backend's
    /// identifier names a collection (``TreeCollection``), so ids kept from an indexed library work here too.
    /// - Throws: `LibraryError.collectionNeedsIndex(_:)` for an album only an indexed library
    ///   keeps, `LibraryError.collectionNotFound(_:)` for any other id not of this tree.
    func folders(of collection: CollectionIdentifier) throws -> [Int] {
        switch TreeCollection(collection) {
        case .allPhotos?:
            return Array(folders.indices)
        case .directory(let uuid)?:
            guard let index = albumFolders.first(where: { AssetUUID.forDirectory(atRelativePath: folders[$0].listing.path) == uuid }) else {
                throw LibraryError.collectionNotFound(collection.rawValue)
            }
            return [index]
        case nil:
            if TreeCollection.isIndexedOnly(collection) { throw LibraryError.collectionNeedsIndex(collection.rawValue) }
            throw LibraryError.collectionNotFound(collection.rawValue)
        }
    }

    var fileCount: Int { folders.reduce(0) { $0 + $1.files.count } }

    /// How many items ``items(in:filter:includingUnread:)`` gives, counted without making them.
    func itemCount(in folderIndices: [Int], filter: MediaFilter, includingUnread: Bool) -> Int {
        var count = 0
        for index in folderIndices {
            let files = folders[index].files
            for file in files.indices where filter.includes(files[file].mediaType) {
                switch files[file].state {
                case .readable: count += 1
                case .unread where includingUnread: count += 1
                default: continue
                }
            }
        }
        return count
    }

    /// The files of `folderIndices` that pass `filter` and whose metadata is not known.
    func unreadCount(in folderIndices: [Int], filter: MediaFilter) -> Int {
        var count = 0
        for index in folderIndices {
            let files = folders[index].files
            // By position: a pass over every file copies none.
            for file in files.indices where files[file].state == .unread && filter.includes(files[file].mediaType) { count += 1 }
        }
        return count
    }

    /// The readable files of `folderIndices` that pass `filter`; with `includingUnread`, the
    /// files not read yet too, each dated provisionally: by its modification time when known,
    /// else by its folder's (the time a file was last added to it).
    func items(in folderIndices: [Int], filter: MediaFilter, includingUnread: Bool = false) -> [Item] {
        var items: [Item] = []
        forEachItem(in: folderIndices, filter: filter, includingUnread: includingUnread) { items.append($0) }
        return items
    }

    /// Calls `body` with each item ``items(in:filter:includingUnread:)`` gives, in its order
    /// (`reversed`: the other way round), without making the list: a pass over a large library
    /// that keeps a few of them touches no more memory than that.
    func forEachItem(in folderIndices: [Int], filter: MediaFilter, includingUnread: Bool, reversed: Bool = false,
                     _ body: (Item) -> Void) {
        for position in folderIndices.indices {
            let folderIndex = folderIndices[reversed ? folderIndices.count - 1 - position : position]
            let files = folders[folderIndex].files
            let folderDate = Self.date(nanoseconds: folders[folderIndex].listing.stamp?.modificationTime ?? 0)
            var fileIndex = reversed ? files.count - 1 : 0
            let step = reversed ? -1 : 1
            while fileIndex >= 0 && fileIndex < files.count {
                defer { fileIndex += step }
                guard filter.includes(files[fileIndex].mediaType) else { continue }
                switch files[fileIndex].state {
                case .readable:
                    let date = files[fileIndex].creationDate ?? files[fileIndex].version.map { Self.date(nanoseconds: $0.modificationTime) } ?? folderDate
                    body(Item(folder: folderIndex, file: fileIndex, creationDate: date, isRead: true))
                case .unread where includingUnread:
                    let date = files[fileIndex].version.map { Self.date(nanoseconds: $0.modificationTime) } ?? folderDate
                    body(Item(folder: folderIndex, file: fileIndex, creationDate: date, isRead: false))
                default:
                    continue
                }
            }
        }
    }

    /// The file of an item, as `stat` last saw it (known for every read file).
    func file(_ item: Item) -> FileEntry {
        guard let entry = folders[item.folder].entry(item.file, rootPath: rootPath) else {
            preconditionFailure("a read file has a version")
        }
        return entry
    }

    /// The path of an item from the library root.
    func relativePath(_ item: Item) -> String {
        folders[item.folder].relativePath(of: item.file)
    }

    /// The asset of a readable item.
    func asset(_ item: Item) -> Asset {
        guard case .success(let metadata)? = folders[item.folder].files[item.file].outcome else {
            preconditionFailure("an asset is made only of a file whose metadata was read")
        }
        return FolderLibrary.asset(file(item), metadata)
    }

    /// The files passed over in `folderIndices` because their metadata could not be read.
    func skipped(inFolders folderIndices: [Int], filter: MediaFilter) -> [SkippedFile] {
        var skipped: [SkippedFile] = []
        for folderIndex in folderIndices {
            let folder = folders[folderIndex]
            for (fileIndex, file) in folder.files.enumerated() where file.state == .unreadable && filter.includes(file.mediaType) {
                if case .failure(let failure)? = file.outcome {
                    skipped.append(SkippedFile(path: folder.relativePath(of: fileIndex), reason: failure.reason))
                }
            }
        }
        return skipped
    }

    /// The path of every media file, from the library root.
    var relativePaths: [String] {
        folders.flatMap { folder in folder.files.indices.map(folder.relativePath(of:)) }
    }

    /// What the walk passed over, every folder's.
    var walkSkipped: [SkippedFile] {
        folders.flatMap(\.listing.skipped)
    }

    private static func date(nanoseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(nanoseconds / 1_000_000_000) + Double(nanoseconds % 1_000_000_000) / 1e9)
    }
}
