import AssetsKit
import Foundation
import ImagePipeline
import LibraryTree
import MediaProbing
import Synchronization

/// A photo library that is a plain folder tree, enumerated live with no index: the
/// AssetsLibrary role. Works on read-only media and never writes to the tree.
///
/// Every folder is a group (`CollectionKind.directory`) of the media files directly in it,
/// an empty folder an empty group; the camera roll, All Photos, holds every media file under
/// the root and is listed first. One walk of the tree answers a call; folder listings and file
/// metadata are cached (in a file outside the library when given one), so a walk lists again
/// only the folders that changed and reads only the files that changed. Assets are named by
/// `LegacyAssetURL`s whose UUID derives from the file's path, so they are stable across runs.
/// Image requests are answered at the size and mode they ask for, as on every backend; the
/// fixed ``Representation``s AssetsLibrary kept are available by name.
///
/// ## Provisional answers
///
/// A folder seen for the first time is listed by name only (`readdir`'s entry types, no call
/// per file), so a first walk of a large tree costs about what `find` costs; a file's size,
/// modification time and metadata (creation date, pixel size, ...) are known once its header
/// is read. A call reads at most 256 unread files before it answers. When the files it needs
/// are more (the first open of a large library, a large folder copied in), it answers
/// provisionally and the rest are read in the background:
///
/// - Counts (``albumSummaries(filter:)``, ``assetCount(in:filter:)``) count an unread file by
///   its name's media type; a file that turns out unreadable is counted until it is read.
/// - An album's key asset is the oldest of its files read so far, none when none was.
/// - ``assets(in:options:)`` with a limit orders unread files by a provisional date: their
///   modification time when known, else their folder's (when a file was last added to it),
///   ties by folder path, then name; only the page's files are read, and those
///   found unreadable are left out of it. A fetch without a limit is counted and ordered the
///   same way when it is made, and reads and makes assets only for the windows asked
///   (`FolderFetchSource`): a fetch is a snapshot of the order when it was made, so offsets
///   keep their meaning while background reads go on; a window leaves out the files it finds
///   unreadable. Collections, their titles and estimated counts never depend on reading.
///
/// The background reads go in small batches on all cores but one, only while no call is being
/// answered, into the cache (and its file, written when they end). When they end, ``changes()``
/// yields a `LibraryChange` naming the camera roll and every folder read, with the files
/// found unreadable as removed; from then on, until the tree changes, every answer is exactly
/// the one a fully read library gives (``settled()`` waits for that).
public final class FolderLibrary: FolderAuthorizing {
    public let rootURL: URL
    public let backendName = "folder"
    let reader: MediaMetadataReader
    let metadataReading: any MediaMetadataReading
    /// Renders, caches and prefetches the images.
    public let imageManager: CachingImageManager
    let cache: FolderCache
    /// At most this many files are read before a call answers; when more are unread, the call
    /// answers provisionally and they are read in the background.
    let synchronousReadLimit: Int
    let background = BackgroundReading()
    /// How many assets fetches and lookups have handed out: a seam for tests (a fetch makes
    /// assets only for the positions read).
    package let handedOutAssetCount = Atomic<Int>(0)
    /// The access the library folder grants (`FolderAuthorizing`).
    public let folderAuthorization: FolderAuthorization

    /// The camera roll's identifier.
    public static let cameraRollID = TreeCollection.allPhotos.folderLibraryIdentifier

    /// - Parameters:
    ///   - root: The folder to show.
    ///   - reader: How file metadata is read (and its pixel limit).
    ///   - cacheFile: Where folder listings and file metadata are kept between processes, so
    ///     that the next start lists again only the folders that changed and reads only the
    ///     files that changed. Never inside the library (see `LibraryOpener`, which puts it in
    ///     the library's data folder); `nil` keeps them in memory for this instance only.
    ///   - metadataReading: Reads the files' metadata (default: `reader`); a seam for counting reads.
    ///   - imageManager: Renders and caches the images (default: memory cache only,
    ///     rendering with the reader's limits).
    public convenience init(root: URL, reader: MediaMetadataReader = MediaMetadataReader(), cacheFile: URL? = nil,
                            metadataReading: (any MediaMetadataReading)? = nil, imageManager: CachingImageManager? = nil) {
        self.init(root: root, reader: reader, cacheFile: cacheFile, metadataReading: metadataReading, imageManager: imageManager,
                  now: FolderCache.now)
    }

    deinit {
        background.finish()
    }

    /// A library whose cache reads the time from `now` (nanoseconds since 1970), for tests: a
    /// listing is trusted only once its folder has been still for a second by that clock.
    /// A call reads at most `synchronousReadLimit` files before it answers (see "Provisional answers").
    package init(root: URL, reader: MediaMetadataReader = MediaMetadataReader(), cacheFile: URL?,
                 metadataReading: (any MediaMetadataReading)?, imageManager: CachingImageManager? = nil,
                 synchronousReadLimit: Int = 256, now: @escaping @Sendable () -> Int64) {
        self.synchronousReadLimit = synchronousReadLimit
        self.rootURL = root.standardizedFileURL
        self.folderAuthorization = FolderAuthorization(root: self.rootURL)
        self.reader = reader
        self.metadataReading = metadataReading ?? reader
        self.cache = FolderCache(file: cacheFile, root: root.standardizedFileURL, now: now)
        self.imageManager = imageManager ?? CachingImageManager(rendering: LibvipsImageRendering(renderer: reader.renderer))
    }

    // MARK: Collections

    /// The camera roll, then every folder of the tree ordered by path: each folder is an album
    /// of the media files directly in it, an empty folder an empty album.
    public func collections() async throws -> [AssetCollection] {
        try await answering {
            let snapshot = try await snapshot()
            await saveCache()
            return [cameraRollCollection(estimatedCount: snapshot.fileCount)] + snapshot.albumFolders.map(snapshot.collection(ofFolder:))
        }
    }

    public func cameraRoll() async throws -> AssetCollection {
        try await answering {
            let snapshot = try await snapshot()
            await saveCache()
            return cameraRollCollection(estimatedCount: snapshot.fileCount)
        }
    }

    public func assetCount(in collection: CollectionIdentifier, filter: MediaFilter) async throws -> Int {
        try await answering {
            var snapshot = try await snapshot()
            let folders = try snapshot.folders(of: collection)
            let isExact = try await readMetadata(of: &snapshot, folders: folders, filter: filter)
            return snapshot.itemCount(in: folders, filter: filter, includingUnread: !isExact)
        }
    }

    // MARK: Assets

    public func assets(in collection: CollectionIdentifier, options: FetchOptions) async throws -> FetchResult {
        try await answering {
            var snapshot = try await snapshot()
            let folders = try snapshot.folders(of: collection)
            let isExact = try await readMetadata(of: &snapshot, folders: folders, filter: options.mediaFilter)
            guard let limit = options.limit else {
                return FetchResult(source: FolderFetchSource(library: self, snapshot: snapshot, folders: folders, filter: options.mediaFilter,
                                                             includingUnread: !isExact, order: options.sortOrder, offset: options.offset, limit: nil))
            }
            // A page asked for by its size needs only the items up to its end: a short page of a
            // large collection is picked in one pass over the files, without a list of them all.
            let offset = max(0, options.offset), end = offset + max(0, limit)
            let total = snapshot.itemCount(in: folders, filter: options.mediaFilter, includingUnread: !isExact)
            let items = end < total / 8
                ? snapshot.first(end, in: folders, filter: options.mediaFilter, includingUnread: !isExact, order: options.sortOrder)
                : snapshot.items(in: folders, filter: options.mediaFilter, includingUnread: !isExact)
            let source = FolderFetchSource(library: self, snapshot: snapshot, items: items, order: options.sortOrder,
                                           offset: offset, limit: limit)
            // A page asked for by its size is made now: its count is the assets it holds.
            return FetchResult(assets: try await source.assets(in: 0..<source.count))
        }
    }

    public func assets(withIdentifiers identifiers: [AssetIdentifier]) async throws -> AssetLookup {
        try await answering {
            let wanted = Set(identifiers.map(\.uuid))
            var found: [UUID: Asset] = [:]
            var remaining = wanted
            var known: [FileEntry] = []
            for uuid in wanted {
                if let path = await cache.relativePath(of: uuid), let file = FileEntry.current(at: path, root: rootURL) {
                    known.append(file)
                    remaining.remove(uuid)
                }
            }
            if !remaining.isEmpty {
                for path in try await snapshot().relativePaths where remaining.contains(AssetUUID.forFile(atRelativePath: path)) {
                    if let file = FileEntry.current(at: path, root: rootURL) { known.append(file) }
                }
            }
            let (scan, files) = try await assets(of: known)
            for asset in await handOut(Array(zip(scan.assets, files))) { found[asset.id.uuid] = asset }
            return AssetLookup(found: identifiers.compactMap { found[$0.uuid] },
                               missing: identifiers.filter { found[$0.uuid] == nil })
        }
    }

    /// The media files of a collection under `filter` that could be read, and those passed over.
    public func scan(_ collection: CollectionIdentifier, filter: MediaFilter) async throws -> FolderScan {
        try await answering {
            var snapshot = try await snapshot()
            let folders = try snapshot.folders(of: collection)
            _ = try await readMetadata(of: &snapshot, folders: folders, filter: filter, mayBeProvisional: false)
            let walkSkipped: [SkippedFile]
            if TreeCollection(collection) == .allPhotos {
                walkSkipped = snapshot.walkSkipped
            } else {
                let directory = snapshot.folders[folders[0]].listing.path
                walkSkipped = snapshot.walkSkipped.filter { ($0.path as NSString).deletingLastPathComponent == directory }
            }
            return FolderScan(assets: snapshot.items(in: folders, filter: filter).map(snapshot.asset),
                              skipped: walkSkipped + snapshot.skipped(inFolders: folders, filter: filter))
        }
    }

    // MARK: Originals

    /// The original of `asset`, opened confined to the library and checked to be the version
    /// the library read (`OriginalLocation.open()`).
    /// - Throws: `LibraryError.assetNotFound(_:)` for a file no longer in the tree;
    ///   `LibraryError.originalUnavailable(file:)` when it changed since it was read.
    public func originalFile(for asset: Asset) async throws -> OriginalResource {
        let file = try await locate(asset)
        do {
            return OriginalResource(file: try originalLocation(of: file).open(), filename: file.filename,
                                    byteSize: file.byteSize, contentType: MediaFileType.mimeType(ofFileNamed: file.filename))
        } catch LibraryError.originalUnavailable(let name) {
            await cache.relist(file.directory)
            throw LibraryError.originalUnavailable(file: name)
        }
    }

    // MARK: Changes

    /// Live changes: one when metadata read in the background changed provisional answers
    /// (counts, key assets, order; see "Provisional answers"), with the files found unreadable
    /// as removed. The stream ends when the library is gone. A folder library takes no changes
    /// and keeps no history or drafts (it never writes into the library), and needs no watching
    /// (every fetch walks the tree again, listing the folders that changed): those
    /// capabilities are `nil`.
    public func changes() -> AsyncStream<LibraryChange> {
        background.listen()
    }

    // MARK: Capabilities

    /// The files a listing passes over are reported (``skippedFiles(in:filter:)``).
    public var skippedFileReport: (any SkippedFileReporting)? { self }

    // MARK: - Internals

    static func collectionID(ofDirectory directory: String) -> CollectionIdentifier {
        TreeCollection(directoryAt: directory).folderLibraryIdentifier
    }

    func cameraRollCollection(estimatedCount: Int) -> AssetCollection {
        AssetCollection(id: Self.cameraRollID, title: "All Photos", kind: .cameraRoll, smartKind: .allPhotos,
                        estimatedAssetCount: estimatedCount)
    }

    /// Where `file` is in the library, of its version: opened only confined to the root.
    func originalLocation(of file: FileEntry) -> OriginalLocation {
        OriginalLocation(root: rootURL, relativePath: file.relativePath, byteSize: file.byteSize, modificationTime: file.modificationTime)
    }

    /// The file behind `asset`, of the version the library read (``FolderCache/entry(of:)``);
    /// as it is on disk now when this library has not read it.
    func locate(_ asset: Asset) async throws -> FileEntry {
        if let file = await cache.entry(of: asset.id.uuid) { return file }
        guard let path = try await snapshot().relativePaths.first(where: { AssetUUID.forFile(atRelativePath: $0) == asset.id.uuid }),
              let file = FileEntry.current(at: path, root: rootURL) else {
            throw LibraryError.assetNotFound(asset.id.description)
        }
        return file
    }
}

extension FolderLibrary: SkippedFileReporting {
    /// The files of `collection` under `filter` passed over by a walk of the folder now.
    public func skippedFiles(in collection: CollectionIdentifier, filter: MediaFilter) async throws -> [SkippedFile] {
        try await scan(collection, filter: filter).skipped
    }
}

/// The readable assets of a collection and the files passed over, with reasons.
public struct FolderScan: Sendable {
    public var assets: [Asset]
    public var skipped: [SkippedFile]
}
