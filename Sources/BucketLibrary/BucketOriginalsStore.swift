import AssetsKit
import Foundation
import IndexedLibrary
import LibraryTree
import S3Storage
import Synchronization

/// Originals kept in an S3 bucket, under a prefix: an indexed library's store when its photos
/// live in a bucket, as iCloud Photos keeps them with "Optimize Storage" on.
///
/// A scan lists the objects (``BucketListingWalk``: key prefixes are albums) and reads each new or
/// changed one's metadata from ranged reads of its head (``ObjectHeadReader``); an object's version
/// is its size and time of change, its fingerprint its size and entity tag, so a copied-then-deleted
/// object is recognised as moved. The index and the previews (every asset gets one) are on this
/// machine, so browsing never waits for the network. An original is fetched when it is asked
/// for with network access (it is its own `OriginalFetching`): into a local cache beside the index
/// (``OriginalsCache``, held to a byte budget, least recently used evicted), one transfer per
/// original however many ask (``SharedDownloads``), with progress, resumed after a dropped
/// connection, stopped when no one waits. It takes no imports (`isWritable` is `false`).
package final class BucketOriginalsStore: OriginalsStore, OriginalFetching {
    /// Where the originals are: the bucket and the key prefix.
    package let location: S3Location
    package let client: S3Client
    /// The originals fetched so far.
    let cache: OriginalsCache
    let downloads = SharedDownloads()
    /// The partial file each transfer under way writes, by the original's path.
    let arriving = Mutex<[String: URL]>([:])
    let headReader: ObjectHeadReader
    package let rescanInterval: Duration?
    private let statistics = Mutex(ReadStatistics())

    /// The first bytes read of each object for its metadata: the corpus's JPEGs, PNGs, HEIFs,
    /// WebPs and videos keep their EXIF, embedded thumbnail and frame size within them (measured:
    /// `BucketLibraryTests/HeadSizeTests`); a file that needs more asks for it by range.
    package static let headBytes: Int64 = 64 << 10
    /// The originals cache's budget unless told: 2 GiB.
    package static let defaultByteBudget: Int64 = 2 << 30
    /// How often a watched library lists the bucket again: every 5 minutes.
    package static let defaultRescanInterval: Duration = .seconds(300)

    /// A store of the originals at `location`, read with `client`, fetched into `cacheFolder`.
    /// - Parameters:
    ///   - byteBudget: The most the fetched originals may take on this machine.
    ///   - rescanInterval: How often a watched library lists the bucket again; `nil` for never.
    package init(location: S3Location, client: S3Client, cacheFolder: URL, byteBudget: Int64 = defaultByteBudget,
                 rescanInterval: Duration? = defaultRescanInterval) {
        self.location = location
        self.client = client
        let cache = OriginalsCache(folder: cacheFolder, byteBudget: byteBudget)
        self.cache = cache
        self.rescanInterval = rescanInterval
        headReader = ObjectHeadReader(client: client, bucket: location.bucket, cache: cache, headBytes: Self.headBytes)
    }

    /// The originals cache of the index at `indexURL`: the folder `<index name>-originals` beside it.
    package static func cacheFolder(besideIndexAt indexURL: URL) -> URL {
        let name = indexURL.deletingPathExtension().lastPathComponent
        return indexURL.deletingLastPathComponent().appendingPathComponent("\(name)-originals", isDirectory: true)
    }

    /// `s3://BUCKET/PREFIX` as a URL: the library's root.
    package var rootURL: URL {
        URL(string: location.description)!
    }

    /// The folder of fetched originals.
    package var cacheFolder: URL { cache.folder }

    /// The bytes the fetched originals take now.
    package var cachedByteCount: Int64 { cache.byteCount }

    /// No imports into a bucket.
    package var isWritable: Bool { false }

    package var fetcher: (any OriginalFetching)? { self }

    /// Lists one key under the prefix: `restricted` (read-only) when the bucket answers, `denied`
    /// with S3's reason when it refuses the credentials, has no such bucket or cannot be reached.
    package func probeAccess() async -> (status: AuthorizationStatus, reason: String?) {
        do {
            _ = try await client.listObjects(bucket: location.bucket, prefix: location.prefix, delimiter: "/", continuationToken: nil, maxKeys: 1)
            return (.restricted, nil)
        } catch {
            return (.denied, BucketUnavailable.reason(error))
        }
    }

    /// Where the original at `path` is kept on this machine, under the cache folder. A path that
    /// could lead out of it (an empty, `.` or `..` part, a control character: whatever an older
    /// index may hold) is refused, never made a file's path.
    package func original(at path: String, byteSize: Int64, modificationTime: Int64) async throws -> OriginalLocation {
        guard ObjectName.isSafeRelativePath(path) else {
            throw LibraryError.unreadableFile(path: ListedKey.escaped(path), reason: "not a name an original can be kept under on this machine")
        }
        return OriginalLocation(root: cache.folder, relativePath: path, byteSize: byteSize, modificationTime: modificationTime)
    }

    /// The key of the original at `path`.
    func key(of path: String) -> String {
        location.key(path)
    }

    /// `s3://BUCKET/KEY` of the original at `path`, for messages.
    func place(of path: String) -> String {
        "s3://\(location.bucket)/\(key(of: path))"
    }

    // MARK: No imports

    private var readOnly: LibraryError {
        .readOnly(path: location.description, reason: "a library over a bucket takes no imports")
    }

    package func stage(copying source: URL, named name: String) throws -> URL { throw readOnly }
    package func stage(_ data: Data, named name: String) throws -> URL { throw readOnly }
    package func publish(_ staged: URL, in folder: String, candidates: some Sequence<String>) throws -> StoredOriginal { throw readOnly }
    package func discard(_ staged: URL) {}
    package func remove(at path: String) {}

    // MARK: What the metadata reads cost

    /// What the metadata reads of this store have transferred so far.
    package struct ReadStatistics: Sendable, Hashable {
        /// Objects whose metadata was read.
        package var objects = 0
        /// Ranged reads made, heads included.
        package var ranges = 0
        /// Objects streamed whole (their head could not be vouched for, or its read failed).
        package var wholeObjects = 0
        /// Bytes transferred for metadata.
        package var bytes: Int64 = 0
    }

    /// What the metadata reads have cost so far.
    package var readStatistics: ReadStatistics { statistics.withLock { $0 } }

    func count(_ cost: ObjectHeadReader.Cost) {
        statistics.withLock { statistics in
            statistics.objects += 1
            statistics.ranges += cost.ranges
            statistics.wholeObjects += cost.wasWhole ? 1 : 0
            statistics.bytes += cost.bytes
        }
    }
}
