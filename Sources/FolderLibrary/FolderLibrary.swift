import AssetsKit
import Foundation
import ImagePipeline
import LibraryFolders
import MediaProbing
import Synchronization

/// A photo library that is a plain folder tree, enumerated live with no index: the
/// AssetsLibrary role. Works on read-only media and never writes to the tree.
///
/// Every folder that holds media is a group (``CollectionKind/directory``); the camera roll,
/// All Photos, holds every media file under the root and is listed first. Assets are named by
/// ``LegacyAssetURL``s whose UUID derives from the file's path, so they are stable across runs.
/// Image requests are answered at the size and mode they ask for, as on every backend; the
/// fixed ``Representation``s AssetsLibrary kept are available by name.
public final class FolderLibrary: PhotoLibrary {
    public let rootURL: URL
    public let backendName = "folder"
    let reader: MediaMetadataReader
    /// Renders, caches and prefetches the images.
    public let imageManager: CachingImageManager
    let cache = MetadataCache()
    private let authorization = Mutex<AuthorizationStatus>(.notDetermined)

    /// The camera roll's identifier.
    public static let cameraRollID = CollectionIdentifier("camera-roll")

    /// - Parameters:
    ///   - root: The folder to show.
    ///   - reader: How file metadata is read (and its pixel limit).
    ///   - imageManager: Renders and caches the images (default: memory cache only,
    ///     rendering with the reader's limits).
    public init(root: URL, reader: MediaMetadataReader = MediaMetadataReader(), imageManager: CachingImageManager? = nil) {
        self.rootURL = root.standardizedFileURL
        self.reader = reader
        self.imageManager = imageManager ?? CachingImageManager(rendering: LibvipsImageRendering(renderer: reader.renderer))
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

    // MARK: Collections

    public func collections() async throws -> [AssetCollection] {
        let (files, _) = try FolderEnumerator(root: rootURL).enumerate()
        let byDirectory = Dictionary(grouping: files, by: \.directory)
        let directories = byDirectory.keys.sorted().map { directory in
            AssetCollection(id: Self.collectionID(ofDirectory: directory),
                            title: AssetCollection.directoryTitle(relativePath: directory, libraryName: rootURL.lastPathComponent),
                            kind: .directory, estimatedAssetCount: byDirectory[directory]?.count)
        }
        return [cameraRollCollection(estimatedCount: files.count)] + directories
    }

    public func cameraRoll() async throws -> AssetCollection {
        cameraRollCollection(estimatedCount: try FolderEnumerator(root: rootURL).enumerate().files.count)
    }

    public func assetCount(in collection: CollectionIdentifier, filter: MediaFilter) async throws -> Int {
        try await scan(collection, filter: filter).assets.count
    }

    // MARK: Assets

    public func assets(in collection: CollectionIdentifier, options: FetchOptions) async throws -> FetchResult {
        var sorted = try await scan(collection, filter: options.mediaFilter).assets
        sorted.sort { lhs, rhs in
            if lhs.creationDate != rhs.creationDate {
                return options.sortOrder == .newestFirst ? lhs.creationDate > rhs.creationDate : lhs.creationDate < rhs.creationDate
            }
            // Ties break by identifier in the same direction, so one order is the other reversed.
            return options.sortOrder == .newestFirst ? lhs.id.description > rhs.id.description : lhs.id.description < rhs.id.description
        }
        let start = min(options.offset, sorted.count)
        let end = options.limit.map { min(sorted.count, start + max(0, $0)) } ?? sorted.count
        return FetchResult(assets: sorted[start..<end])
    }

    public func assets(withIdentifiers identifiers: [AssetIdentifier]) async throws -> AssetLookup {
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
            let files = try FolderEnumerator(root: rootURL).enumerate().files
            await cache.remember(files)
            known += files.filter { remaining.contains(AssetUUID.forFile(atRelativePath: $0.relativePath)) }
        }
        for asset in try await assets(of: known).assets { found[asset.id.uuid] = asset }
        return AssetLookup(found: identifiers.compactMap { found[$0.uuid] },
                           missing: identifiers.filter { found[$0.uuid] == nil })
    }

    /// The media files of a collection under `filter` that could be read, and those passed over.
    public func scan(_ collection: CollectionIdentifier, filter: MediaFilter) async throws -> FolderScan {
        let (files, skipped) = try FolderEnumerator(root: rootURL).enumerate()
        await cache.remember(files)
        guard collection != Self.cameraRollID else {
            var result = try await assets(of: files.filter { filter.includes($0.mediaType) })
            result.skipped = skipped + result.skipped
            return result
        }
        guard let directory = Set(files.map(\.directory)).first(where: { Self.collectionID(ofDirectory: $0) == collection }) else {
            throw LibraryError.collectionNotFound(collection.rawValue)
        }
        var result = try await assets(of: files.filter { $0.directory == directory && filter.includes($0.mediaType) })
        result.skipped = skipped.filter { ($0.path as NSString).deletingLastPathComponent == directory } + result.skipped
        return result
    }

    // MARK: Originals

    public func originalFile(for asset: Asset) async throws -> OriginalResource {
        let file = try await locate(asset)
        return OriginalResource(fileURL: file.url, filename: file.filename, byteSize: file.byteSize,
                                contentType: MediaFileType.mimeType(ofFileNamed: file.filename))
    }

    // MARK: Changes

    /// A folder library records no changes: the stream ends at once. It takes no changes and
    /// keeps no history or drafts (it never writes), and needs no watching (every fetch lists
    /// the folder afresh): those capabilities are `nil`.
    public func changes() -> AsyncStream<LibraryChange> {
        AsyncStream { $0.finish() }
    }

    // MARK: Capabilities

    /// The files a listing passes over are reported (``skippedFiles(in:filter:)``).
    public var skippedFileReport: (any SkippedFileReporting)? { self }

    // MARK: - Internals

    static func collectionID(ofDirectory directory: String) -> CollectionIdentifier {
        CollectionIdentifier("assets-library://group/?id=\(AssetUUID.forDirectory(atRelativePath: directory).uuidString)")
    }

    private func cameraRollCollection(estimatedCount: Int) -> AssetCollection {
        AssetCollection(id: Self.cameraRollID, title: "All Photos", kind: .cameraRoll, estimatedAssetCount: estimatedCount)
    }

    /// The file behind `asset`, as it is on disk now.
    func locate(_ asset: Asset) async throws -> FileEntry {
        if let path = await cache.relativePath(of: asset.id.uuid), let file = FileEntry.current(at: path, root: rootURL) {
            return file
        }
        let files = try FolderEnumerator(root: rootURL).enumerate().files
        await cache.remember(files)
        guard let file = files.first(where: { AssetUUID.forFile(atRelativePath: $0.relativePath) == asset.id.uuid }) else {
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
