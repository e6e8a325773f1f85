import AssetsKit
import BucketLibrary
import FolderLibrary
import Foundation
import ImagePipeline
import IndexedLibrary
import MediaProbing
import PostgresIndex
import S3Storage

/// Opens a library folder with the backend asked for: the manager of the original design,
/// which handed out the PhotoKit library where it could and the AssetsLibrary one otherwise.
///
/// ``LibraryBackend/auto`` opens the indexed library when the library's index exists. Whether
/// a missing index is made is the caller's to say (`mayCreateIndex`): commands that only read
/// never make one and get the folder library, which writes nothing; commands that change the
/// library or serve it make one where ``IndexLocation`` puts it, when that place is writable.
/// A newly created index is filled by a first scan before the library is returned. Nothing is
/// ever written inside the library folder by opening it; the folder library keeps its cache of
/// listings and metadata in the library's data folder (``IndexLocation/folderCacheURL(forRoot:dataFolder:)``).
///
/// A root `s3://BUCKET/PREFIX` is a library in a bucket (``isBucket(_:)``): always indexed, its
/// index, previews and fetched originals in the data folder
/// (``IndexLocation/defaultURL(forBucket:endpoint:dataFolder:)``), reached as ``bucketConnection``
/// says. Only ``indexedLibrary(root:indexURL:)`` (the `index` command) makes its index; every other
/// opening of a bucket not indexed yet says to run `assets-picker index` first
/// (``BucketOpeningError``). Opening it touches no network: browsing works with the bucket unreachable.
///
/// With ``database`` naming PostgreSQL, the index is that database, whatever the folder or
/// bucket (`auto` then always means indexed); previews and caches stay where the SQLite file
/// would be. An unreachable server, a refused password or a wrong URL fail with one line
/// (``PostgresIndexError``), never printing the password.
public struct LibraryOpener: Sendable {
    /// Reads file metadata (and sets the pixel limit) for either backend.
    public var reader: MediaMetadataReader
    /// Renders and caches images for either backend; `nil` for each backend's default.
    public var imageManager: CachingImageManager?
    /// Where indexes live when none is named (see ``IndexLocation/dataFolder(environment:)``).
    public var dataFolder: URL
    /// Whether an index could be created at a URL; injectable for tests.
    public var canCreateIndex: @Sendable (URL) -> Bool
    /// How libraries in buckets are reached.
    public var bucketConnection: BucketConnection
    /// Where indexes keep their records: the SQLite file (default) or a PostgreSQL database.
    public var database: IndexDatabase

    public init(reader: MediaMetadataReader = MediaMetadataReader(), imageManager: CachingImageManager? = nil,
                dataFolder: URL = IndexLocation.dataFolder(),
                canCreateIndex: @escaping @Sendable (URL) -> Bool = IndexLocation.canCreate(at:),
                bucketConnection: BucketConnection = BucketConnection(), database: IndexDatabase = .sqliteFile) {
        self.reader = reader
        self.imageManager = imageManager
        self.dataFolder = dataFolder
        self.canCreateIndex = canCreateIndex
        self.bucketConnection = bucketConnection
        self.database = database
    }

    /// Whether `root` names a library in a bucket (`s3://…`) rather than a folder.
    public static func isBucket(_ root: URL) -> Bool {
        root.scheme?.lowercased() == "s3"
    }

    /// The index of `root` when none is named: ``IndexLocation/defaultURL(forRoot:dataFolder:)``,
    /// or for a bucket ``IndexLocation/defaultURL(forBucket:endpoint:dataFolder:)``.
    public func defaultIndexURL(forRoot root: URL) -> URL {
        if Self.isBucket(root), let location = S3Location(string: root.absoluteString) {
            return IndexLocation.defaultURL(forBucket: location, endpoint: bucketConnection.resolvedEndpoint, dataFolder: dataFolder)
        }
        return IndexLocation.defaultURL(forRoot: root, dataFolder: dataFolder)
    }

    /// The backend `backend` resolves to for `root`: never ``LibraryBackend/auto``.
    /// - Parameters:
    ///   - indexURL: Where the index is or would be (default: ``defaultIndexURL(forRoot:)``).
    ///   - mayCreateIndex: Whether `auto` may choose a missing index that can be created.
    public func resolve(root: URL, backend: LibraryBackend, indexURL: URL? = nil, mayCreateIndex: Bool = false) -> LibraryBackend {
        guard backend == .auto else { return backend }
        if Self.isBucket(root) || database != .sqliteFile { return .indexed }
        let index = indexURL ?? defaultIndexURL(forRoot: root)
        return IndexLocation.exists(at: index) || (mayCreateIndex && canCreateIndex(index)) ? .indexed : .folder
    }

    /// Opens `root` with `backend` (resolved by ``resolve(root:backend:indexURL:mayCreateIndex:)``).
    /// - Parameters:
    ///   - indexURL: The index file (default: ``defaultIndexURL(forRoot:)``).
    ///   - mayCreateIndex: Whether `auto` may create a missing index (``LibraryBackend/indexed``
    ///     always does).
    ///   - scanProgress: Told how the first scan of a new index goes, for a progress bar.
    /// - Throws: ``LibraryError/accessDenied(path:reason:)`` when `root` is not a readable
    ///   folder (nothing is created then), or what opening or scanning the index threw.
    public func open(root: URL, backend: LibraryBackend, indexURL: URL? = nil, mayCreateIndex: Bool = false,
                     scanProgress: (@Sendable (ScanProgress) -> Void)? = nil) async throws -> any PhotoLibrary {
        if Self.isBucket(root) { return try await indexedBucket(root, backend: backend, indexURL: indexURL) }
        let folder = try await readableFolder(root)
        switch resolve(root: root, backend: backend, indexURL: indexURL, mayCreateIndex: mayCreateIndex) {
        case .folder, .auto:
            return folder
        case .indexed:
            let library = try await indexedLibrary(root: root, indexURL: indexURL)
            // A new index, or one whose first scan was interrupted, is scanned before use.
            if try await !library.hasCompletedScan() { try await library.scan(progress: scanProgress) }
            return library
        }
    }

    /// The indexed library of `root`, its index opened or created (empty until scanned).
    /// - Parameter indexURL: The index file (default: ``defaultIndexURL(forRoot:)``).
    /// - Throws: ``LibraryError/accessDenied(path:reason:)`` when `root` is not a readable
    ///   folder (nothing is created then), or what opening the index threw.
    public func indexedLibrary(root: URL, indexURL: URL? = nil) async throws -> any PhotoLibrary & LibraryIndexing {
        if Self.isBucket(root) { return try await bucketLibrary(root, indexURL: indexURL ?? defaultIndexURL(forRoot: root)) }
        _ = try await readableFolder(root)
        let indexURL = indexURL ?? defaultIndexURL(forRoot: root)
        if case .postgres(let address) = database {
            return try IndexedLibrary(root: root, index: try await postgresStore(address, place: root.standardizedFileURL.path, beside: indexURL),
                                      localFilesBeside: indexURL, reader: reader, imageManager: imageManager)
        }
        return try IndexedLibrary(root: root, databaseURL: indexURL, reader: reader, imageManager: imageManager)
    }

    /// The index in the PostgreSQL database at `address` of the library at `place`, recording
    /// the previews of this machine's folder beside `localURL`.
    private func postgresStore(_ address: PostgresAddress, place: String, beside localURL: URL) async throws -> PostgresIndexStore {
        try await PostgresIndexStore(database: try await PostgresPool.shared(at: address), root: place,
                                     previewPlace: PreviewStore(besideIndexAt: localURL).placeKey)
    }

    /// The library in the bucket `root`, opened from its index: for every command but `index`.
    /// - Throws: ``BucketOpeningError/alwaysIndexed(place:)`` for the folder backend,
    ///   ``BucketOpeningError/notIndexed(place:)`` when no scan of it has finished here.
    private func indexedBucket(_ root: URL, backend: LibraryBackend, indexURL: URL?) async throws -> any PhotoLibrary {
        let place = root.absoluteString
        guard backend != .folder else { throw BucketOpeningError.alwaysIndexed(place: place) }
        let index = indexURL ?? defaultIndexURL(forRoot: root)
        guard database != .sqliteFile || IndexLocation.exists(at: index) else { throw BucketOpeningError.notIndexed(place: place) }
        let library = try await bucketLibrary(root, indexURL: index)
        guard try await library.hasCompletedScan() else { throw BucketOpeningError.notIndexed(place: place) }
        return library
    }

    /// The indexed library over the bucket `root`, its index at `indexURL` (made when missing),
    /// its originals fetched into the folder beside it. Touches no network but a PostgreSQL
    /// database's, when ``database`` names one (the index is then there).
    private func bucketLibrary(_ root: URL, indexURL: URL) async throws -> IndexedLibrary {
        guard let location = S3Location(string: root.absoluteString) else { throw BucketOpeningError.invalidAddress(root.absoluteString) }
        let client = S3Client(configuration: try bucketConnection.configuration())
        let store = BucketOriginalsStore(location: location, client: client,
                                         cacheFolder: BucketOriginalsStore.cacheFolder(besideIndexAt: indexURL),
                                         byteBudget: bucketConnection.originalsByteBudget ?? BucketOriginalsStore.defaultByteBudget,
                                         rescanInterval: bucketConnection.rescanInterval ?? BucketOriginalsStore.defaultRescanInterval)
        if case .postgres(let address) = database {
            return try IndexedLibrary(root: store.rootURL, index: try await postgresStore(address, place: store.rootURL.absoluteString, beside: indexURL),
                                      localFilesBeside: indexURL, originals: store, reader: reader, imageManager: imageManager)
        }
        return try IndexedLibrary(root: store.rootURL, databaseURL: indexURL, originals: store, reader: reader, imageManager: imageManager)
    }

    /// The folder library of `root`, once `root` has been found to be a folder that can be read.
    private func readableFolder(_ root: URL) async throws -> FolderLibrary {
        let folder = FolderLibrary(root: root, reader: reader, cacheFile: IndexLocation.folderCacheURL(forRoot: root, dataFolder: dataFolder),
                                   imageManager: imageManager)
        guard await folder.requestAuthorization().allowsReading else {
            throw LibraryError.accessDenied(path: root.path, reason: "the folder does not exist or cannot be read")
        }
        return folder
    }
}
