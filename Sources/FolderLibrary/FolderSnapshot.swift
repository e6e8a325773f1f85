import AssetsKit
import Foundation
import LibraryFolders
import MediaProbing

/// One walk of the tree: every folder in walk order with its media files and the metadata
/// known of them. The calls that answer one listing share one snapshot.
struct FolderSnapshot: Sendable {
    var folders: [FolderCache.Folder]
    let libraryName: String

    /// A readable media file of the snapshot, by position.
    struct Item: Sendable {
        let folder: Int
        let file: Int
        let creationDate: Date
    }

    /// The folders shown as albums, ordered by path: every folder that could be read, empty or
    /// not, except the root when it holds no media directly (its files are the camera roll's).
    var albumFolders: [Int] {
        folders.indices.filter { index in
            let listing = folders[index].listing
            return listing.isComplete && (!listing.path.isEmpty || !listing.files.isEmpty)
        }.sorted { folders[$0].listing.path < folders[$1].listing.path }
    }

    /// The album of the folder at `index`.
    func collection(ofFolder index: Int) -> AssetCollection {
        let listing = folders[index].listing
        return AssetCollection(id: FolderLibrary.collectionID(ofDirectory: listing.path),
                               title: AssetCollection.directoryTitle(relativePath: listing.path, libraryName: libraryName),
                               kind: .directory, estimatedAssetCount: listing.files.count)
    }

    /// The folders a collection is made of: all of them for the camera roll.
    func folders(of collection: CollectionIdentifier) throws -> [Int] {
        if collection == FolderLibrary.cameraRollID { return Array(folders.indices) }
        guard let index = albumFolders.first(where: { FolderLibrary.collectionID(ofDirectory: folders[$0].listing.path) == collection }) else {
            throw LibraryError.collectionNotFound(collection.rawValue)
        }
        return [index]
    }

    var fileCount: Int { folders.reduce(0) { $0 + $1.listing.files.count } }

    /// The readable files of `folderIndices` that pass `filter` (their metadata must be known).
    func items(in folderIndices: [Int], filter: MediaFilter) -> [Item] {
        var items: [Item] = []
        for folderIndex in folderIndices {
            let folder = folders[folderIndex]
            for (fileIndex, file) in folder.listing.files.enumerated() where filter.includes(file.mediaType) {
                if case .success(let metadata)? = folder.outcomes[fileIndex] {
                    items.append(Item(folder: folderIndex, file: fileIndex, creationDate: metadata.creationDate ?? file.modificationDate))
                }
            }
        }
        return items
    }

    /// The file of an item.
    func file(_ item: Item) -> FileEntry {
        folders[item.folder].listing.files[item.file]
    }

    /// The asset of a readable item.
    func asset(_ item: Item) -> Asset {
        let file = folders[item.folder].listing.files[item.file]
        guard case .success(let metadata)? = folders[item.folder].outcomes[item.file] else {
            preconditionFailure("an item is made only of a file whose metadata was read")
        }
        return FolderLibrary.asset(file, metadata)
    }

    /// The files passed over in `directory` (by the walk, or because their metadata could not be read).
    func skipped(inFolders folderIndices: [Int], filter: MediaFilter) -> [SkippedFile] {
        var skipped: [SkippedFile] = []
        for folderIndex in folderIndices {
            let folder = folders[folderIndex]
            for (fileIndex, file) in folder.listing.files.enumerated() where filter.includes(file.mediaType) {
                if case .failure(let failure)? = folder.outcomes[fileIndex] {
                    skipped.append(SkippedFile(path: file.relativePath, reason: failure.reason))
                }
            }
        }
        return skipped
    }

    /// What the walk passed over, every folder's.
    var walkSkipped: [SkippedFile] {
        folders.flatMap(\.listing.skipped)
    }
}
