import AssetsKit
import Foundation
import GRDB
import ImagePipeline
import LibraryFolders
import MediaProbing
import Synchronization

/// A photo library kept in a SQLite index: the PhotoKit role.
///
/// The files stay where they are (they are adopted in place, never moved, renamed or written);
/// the index (a SQLite file kept outside the library, see `IndexLocation`) holds their metadata, so a library of
/// 100,000 assets opens at once and any page of it is a few index lookups. Call
/// ``scan(progress:)`` to bring the index in line with the tree.
///
/// Collections: the smart albums (All Photos first — the camera roll — then Favorites, Videos,
/// Recently Added, Recently Deleted), then user albums and folders, then the directory tree.
/// Assets are named by ``LocalIdentifier``s; a file a ``FolderLibrary`` named by a legacy URL
/// has the same UUID here, so either form finds it. Images are rendered at the exact size asked
/// for, through a ``CachingImageManager``.
public final class IndexedLibrary: PhotoLibrary {
    public let rootURL: URL
    public let backendName = "indexed"
    public let isWritable: Bool
    /// Renders, caches and prefetches images.
    public let imageManager: CachingImageManager
    /// How long an asset stays in Recently Added.
    public static let recentlyAddedInterval: TimeInterval = 30 * 86_400
    let database: LibraryDatabase
    let reader: any MediaMetadataReading
    let now: @Sendable () -> Date
    private let authorization = Mutex<AuthorizationStatus>(.notDetermined)

    /// Opens the index of `root` at `databaseURL`, creating it when there is none yet (it is
    /// empty until the first ``scan(progress:)``).
    ///
    /// - Parameters:
    ///   - root: The folder the library shows.
    ///   - databaseURL: Where the index is (its folder is made when missing).
    ///   - reader: How scans read file metadata.
    ///   - imageManager: Renders and caches images (default: a memory cache, and a disk cache
    ///     of `diskCacheBytes` in a `cache` folder beside the index when that is given).
    ///   - diskCacheBytes: The disk cache budget of the default image manager; `nil` for none.
    ///   - now: The present, for Recently Added and the date assets are added; injectable for tests.
    public init(root: URL, databaseURL: URL, reader: any MediaMetadataReading = MediaMetadataReader(),
                imageManager: CachingImageManager? = nil, diskCacheBytes: Int64? = nil,
                now: @escaping @Sendable () -> Date = { Date() }) throws {
        let rootURL = root.standardizedFileURL
        self.rootURL = rootURL
        database = try LibraryDatabase(url: databaseURL)
        self.reader = reader
        self.now = now
        isWritable = access(rootURL.path, W_OK) == 0
        if let imageManager {
            self.imageManager = imageManager
        } else {
            let renderer = (reader as? MediaMetadataReader)?.renderer ?? ImageRenderer()
            let diskCache = try diskCacheBytes.map {
                try DiskImageCache(directory: databaseURL.deletingLastPathComponent().appendingPathComponent("cache", isDirectory: true),
                                   byteLimit: $0)
            }
            self.imageManager = CachingImageManager(diskCache: diskCache, rendering: LibvipsImageRendering(renderer: renderer))
        }
        try database.pool.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('rootPath', ?)", arguments: [rootURL.path])
        }
    }

    /// Brings the index in line with the folder tree: adopts new files, re-reads changed ones,
    /// follows moved ones, removes those gone. See ``ScanSummary``.
    /// - Parameter progress: Called as files are found and dealt with, for a progress bar.
    @discardableResult
    public func scan(progress: (@Sendable (ScanProgress) -> Void)? = nil) async throws -> ScanSummary {
        let summary = try await LibraryScanner(root: rootURL, database: database, reader: reader, now: now).scan(progress: progress)
        let finished = now().timeIntervalSince1970
        try await database.pool.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('scanCompletedAt', ?)", arguments: [String(finished)])
        }
        return summary
    }

    /// Whether a scan of the whole tree has ever finished on this index (a first scan that was
    /// interrupted leaves an index that exists but is incomplete).
    public func hasCompletedScan() async throws -> Bool {
        try await database.pool.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'scanCompletedAt'") != nil
        }
    }

    // MARK: Authorization

    public func authorizationStatus() async -> AuthorizationStatus {
        authorization.withLock { $0 }
    }

    public func requestAuthorization() async -> AuthorizationStatus {
        let status = FolderAccess.probe(rootURL)
        authorization.withLock { $0 = status }
        return status
    }

    // MARK: Originals

    public func originalFile(for asset: Asset) async throws -> OriginalResource {
        let record = try await record(of: asset)
        return OriginalResource(fileURL: url(of: record), filename: record.filename, byteSize: record.byteSize,
                                contentType: MediaFileType.mimeType(ofFileNamed: record.filename))
    }

    // MARK: - Internals

    /// The row of `asset`, if it is still in the library (Recently Deleted included).
    func record(of asset: Asset) async throws -> AssetRecord {
        let uuid = asset.id.uuid
        guard let record = try await database.pool.read({ db in
            try AssetRecord.filter(Column("uuid") == uuid).fetchOne(db)
        }) else { throw LibraryError.assetNotFound(asset.id.description) }
        return record
    }

    func url(of record: AssetRecord) -> URL {
        URL(fileURLWithPath: rootURL.path + "/" + record.relativePath, isDirectory: false)
    }
}
