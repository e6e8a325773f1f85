import AssetsKit
import Foundation
import ImagePipeline
import LibraryTree
import MediaProbing

/// A photo library kept in a SQLite index: the PhotoKit role.
///
/// The files stay where they are (they are adopted in place, never moved, renamed or written);
/// the index (a SQLite file kept outside the library, see `IndexLocation`) holds their metadata, so a library of
/// 100,000 assets opens at once and any page of it is a few index lookups. Call
/// ``scan(progress:)`` to bring the index in line with the tree.
///
/// Collections: the smart albums (All Photos first — the camera roll — then Favorites, Videos,
/// Recently Added, Recently Deleted), then user albums and folders, then the directory tree.
/// Assets are named by `LocalIdentifier`s; a file a `FolderLibrary` named by a legacy URL
/// has the same UUID here, so either form finds it. Images are rendered at the exact size asked
/// for, through a `CachingImageManager`.
public final class IndexedLibrary: FolderAuthorizing {
    /// The folder the library shows, or where its originals are kept when that is not a folder
    /// of this machine (`s3://BUCKET/PREFIX`).
    public let rootURL: URL
    public let backendName = "indexed"
    /// Whether the originals can be written (`OriginalsStore.isWritable`): imports, purges of
    /// imported files and every other change need it (``changing`` is `nil` otherwise).
    public var isWritable: Bool { originals.isWritable }
    /// Where the bytes of the originals are kept.
    package let originals: any OriginalsStore
    /// Renders, caches and prefetches images.
    public let imageManager: CachingImageManager
    /// The photos' previews, made by ``makePreviews(progress:)`` (beside the index); `nil` for none.
    public let previews: PreviewStore?
    /// The run of previews in the background (``makePreviewsInBackground()``).
    let backgroundPreviews = BackgroundPreviews()
    /// How long an asset stays in Recently Added.
    public static let recentlyAddedInterval: TimeInterval = 30 * 86_400
    /// Where the records live (``SQLiteIndexStore``: the SQLite file at the database URL, unless
    /// the library was made over another store).
    let index: any IndexStore
    let reader: any MediaMetadataReading
    let now: @Sendable () -> Date
    /// The access the library's originals grant (`FolderAuthorizing`), found by the store
    /// (`OriginalsStore.probeAccess()`: the folder read, or the bucket listed).
    public let folderAuthorization: FolderAuthorization

    /// Opens the index of `root` at `databaseURL`, creating it when there is none yet (it is
    /// empty until the first ``scan(progress:)``). The photos' previews are kept beside it
    /// (``PreviewStore/init(besideIndexAt:)``).
    ///
    /// - Parameters:
    ///   - root: The folder the library shows.
    ///   - databaseURL: Where the index is (its folder is made when missing).
    ///   - reader: How scans read file metadata.
    ///   - imageManager: Renders and caches images (default: a memory cache, and a disk cache
    ///     of `diskCacheBytes` in a `cache` folder beside the index when that is given).
    ///   - diskCacheBytes: The disk cache budget of the default image manager; `nil` for none.
    ///   - now: The present, for Recently Added and the date assets are added; injectable for tests.
    public convenience init(root: URL, databaseURL: URL,
                            reader: any MediaMetadataReading = MediaMetadataReader(),
                            imageManager: CachingImageManager? = nil, diskCacheBytes: Int64? = nil,
                            now: @escaping @Sendable () -> Date = { Date() }) throws {
        try self.init(root: root, databaseURL: databaseURL, originals: nil, reader: reader, imageManager: imageManager,
                      diskCacheBytes: diskCacheBytes, now: now)
    }

    /// Opens the index of `root` at `databaseURL` as the public initializer does, over the
    /// originals kept in `originals` (default: `LocalOriginalsStore`, the folder `root`).
    package convenience init(root: URL, databaseURL: URL, originals: (any OriginalsStore)?,
                             reader: any MediaMetadataReading = MediaMetadataReader(),
                             imageManager: CachingImageManager? = nil, diskCacheBytes: Int64? = nil,
                             now: @escaping @Sendable () -> Date = { Date() }) throws {
        try self.init(root: root, index: SQLiteIndexStore(url: databaseURL), localFilesBeside: databaseURL, originals: originals,
                      reader: reader, imageManager: imageManager, diskCacheBytes: diskCacheBytes, now: now)
    }

    /// A library over `index` (a store in a target of its own, such as one on PostgreSQL) that
    /// keeps what belongs to this machine — the photos' previews and the disk cache of the
    /// default image manager — beside `localURL`, where a SQLite index would be (``PreviewStore/init(besideIndexAt:)``).
    package convenience init(root: URL, index: any IndexStore, localFilesBeside localURL: URL, originals: (any OriginalsStore)? = nil,
                             reader: any MediaMetadataReading = MediaMetadataReader(),
                             imageManager: CachingImageManager? = nil, diskCacheBytes: Int64? = nil,
                             now: @escaping @Sendable () -> Date = { Date() }) throws {
        let manager = try imageManager ?? {
            let renderer = (reader as? MediaMetadataReader)?.renderer ?? ImageRenderer()
            let diskCache = try diskCacheBytes.map {
                try DiskImageCache(directory: localURL.deletingLastPathComponent().appendingPathComponent("cache", isDirectory: true),
                                   byteLimit: $0)
            }
            return CachingImageManager(diskCache: diskCache, rendering: LibvipsImageRendering(renderer: renderer))
        }()
        try self.init(root: root, index: index, originals: originals, reader: reader,
                      imageManager: manager, previews: PreviewStore(besideIndexAt: localURL), now: now)
    }

    /// A library over any ``IndexStore`` (a store in a target of its own, such as one on
    /// PostgreSQL); it records `root` in the store. `root` is the folder the library shows, or
    /// where its `originals` are kept when that is elsewhere (`s3://BUCKET/PREFIX`).
    package init(root: URL, index: any IndexStore, originals: (any OriginalsStore)? = nil,
                 reader: any MediaMetadataReading = MediaMetadataReader(), imageManager: CachingImageManager,
                 previews: PreviewStore? = nil, now: @escaping @Sendable () -> Date = { Date() }) throws {
        let rootURL = root.standardizedFileURL
        let store = originals ?? LocalOriginalsStore(root: rootURL)
        self.rootURL = rootURL
        self.folderAuthorization = FolderAuthorization { await store.probeAccess() }
        self.index = index
        self.reader = reader
        self.now = now
        self.originals = store
        self.imageManager = imageManager
        self.previews = previews
        try index.recordRoot(placeDescription)
    }

    /// Brings the index in line with the folder tree: adopts new files, re-reads changed ones,
    /// follows moved ones, removes those gone. See `ScanSummary`.
    /// - Parameter progress: Called as files are found and dealt with, for a progress bar.
    @discardableResult
    public func scan(progress: (@Sendable (ScanProgress) -> Void)? = nil) async throws -> ScanSummary {
        let summary = try await LibraryScanner(source: originals, index: index, reader: reader, now: now).scan(progress: progress)
        try await index.recordCompletedScan(at: now())
        return summary
    }

    /// Whether a scan of the whole tree has ever finished on this index (a first scan that was
    /// interrupted leaves an index that exists but is incomplete).
    public func hasCompletedScan() async throws -> Bool {
        try await index.hasCompletedScan()
    }

    // MARK: Originals

    /// The original of `asset`, opened confined to the library and checked to be the version
    /// the index knows (`OriginalLocation.open()`).
    /// - Throws: `LibraryError.assetNotFound(_:)` for an asset the index no longer
    ///   has; `LibraryError.originalUnavailable(file:)` when its file is gone or changed.
    public func originalFile(for asset: Asset) async throws -> OriginalResource {
        try await originalFile(for: asset, request: OriginalRequest())
    }

    /// The original of `asset`, as ``originalFile(for:)`` gives it, fetched first when its store
    /// keeps it elsewhere and `request` allows network access.
    /// - Throws: What ``originalFile(for:)`` throws; `LibraryError.networkAccessRequired(file:)`
    ///   when it must be fetched and `request` does not allow it.
    public func originalFile(for asset: Asset, request: OriginalRequest) async throws -> OriginalResource {
        let record = try await record(of: asset)
        let location = try await originalLocation(of: record)
        if let fetcher = originals.fetcher, !fetcher.isLocal(location) {
            guard request.isNetworkAccessAllowed else { throw LibraryError.networkAccessRequired(file: record.filename) }
            try await fetcher.fetch(location, progress: request.progress)
        }
        return OriginalResource(file: try location.open(), filename: record.filename, byteSize: record.byteSize,
                                contentType: MediaFileType.mimeType(ofFileNamed: record.filename))
    }

    // MARK: - Internals

    /// Where the original of `record` is, and the version the index knows.
    func originalLocation(of record: AssetRecord) async throws -> OriginalLocation {
        var location = try await originals.original(at: record.relativePath, byteSize: record.byteSize, modificationTime: record.modificationTime)
        location.fingerprint = record.fingerprint
        return location
    }

    /// The row of `asset`, if it is still in the library (Recently Deleted included).
    func record(of asset: Asset) async throws -> AssetRecord {
        guard let record = try await index.records(uuids: [asset.id.uuid])[asset.id.uuid] else {
            throw LibraryError.assetNotFound(asset.id.description)
        }
        return record
    }
}
