import AssetsKit
import FolderLibrary
import Foundation
import ImagePipeline
import IndexedLibrary

/// Opens a library folder with the backend asked for: the manager of the original design,
/// which handed out the PhotoKit library where it could and the AssetsLibrary one otherwise.
///
/// ``LibraryBackend/auto`` opens the indexed library when its index exists or can be created
/// (the folder of the index is writable), else the folder library, which never writes (read-only
/// media). A newly created index is filled by a first scan before the library is returned.
public struct LibraryOpener: Sendable {
    /// Reads file metadata (and sets the pixel limit) for either backend.
    public var reader: MediaMetadataReader
    /// Renders and caches images for either backend; `nil` for each backend's default.
    public var imageManager: CachingImageManager?
    /// Whether an index could be created at a URL; injectable for tests.
    public var canCreateIndex: @Sendable (URL) -> Bool

    public init(reader: MediaMetadataReader = MediaMetadataReader(), imageManager: CachingImageManager? = nil,
                canCreateIndex: @escaping @Sendable (URL) -> Bool = IndexLocation.canCreate(at:)) {
        self.reader = reader
        self.imageManager = imageManager
        self.canCreateIndex = canCreateIndex
    }

    /// The index's default place: `<root>/.assets-picker/library.sqlite`.
    public static func defaultIndexURL(forRoot root: URL) -> URL {
        root.appendingPathComponent(".assets-picker", isDirectory: true).appendingPathComponent("library.sqlite")
    }

    /// The backend `backend` resolves to for `root`: never ``LibraryBackend/auto``.
    /// - Parameter indexURL: Where the index is or would be (default: under the root).
    public func resolve(root: URL, backend: LibraryBackend, indexURL: URL? = nil) -> LibraryBackend {
        guard backend == .auto else { return backend }
        let index = indexURL ?? Self.defaultIndexURL(forRoot: root)
        return IndexLocation.exists(at: index) || canCreateIndex(index) ? .indexed : .folder
    }

    /// Opens `root` with `backend` (resolved by ``resolve(root:backend:indexURL:)``).
    /// - Parameters:
    ///   - indexURL: The index file (default: `<root>/.assets-picker/library.sqlite`).
    ///   - scanProgress: Told how the first scan of a new index goes, for a progress bar.
    /// - Throws: ``LibraryError/accessDenied(path:reason:)`` when `root` is not a readable
    ///   folder (nothing is created then), or what opening or scanning the index threw.
    public func open(root: URL, backend: LibraryBackend, indexURL: URL? = nil,
                     scanProgress: (@Sendable (ScanProgress) -> Void)? = nil) async throws -> any PhotoLibrary {
        let folder = try await readableFolder(root)
        switch resolve(root: root, backend: backend, indexURL: indexURL) {
        case .folder, .auto:
            return folder
        case .indexed:
            let library = try await indexedLibrary(root: root, indexURL: indexURL ?? Self.defaultIndexURL(forRoot: root))
            // A new index, or one whose first scan was interrupted, is scanned before use.
            if try await !library.hasCompletedScan() { try await library.scan(progress: scanProgress) }
            return library
        }
    }

    /// The indexed library of `root`, its index opened or created (empty until scanned).
    /// - Throws: ``LibraryError/accessDenied(path:reason:)`` when `root` is not a readable
    ///   folder (nothing is created then), or what opening the index threw.
    public func indexedLibrary(root: URL, indexURL: URL? = nil) async throws -> IndexedLibrary {
        _ = try await readableFolder(root)
        return try IndexedLibrary(root: root, databaseURL: indexURL ?? Self.defaultIndexURL(forRoot: root), reader: reader,
                                  imageManager: imageManager)
    }

    /// The folder library of `root`, once `root` has been found to be a folder that can be read.
    private func readableFolder(_ root: URL) async throws -> FolderLibrary {
        let folder = FolderLibrary(root: root, reader: reader, imageManager: imageManager)
        guard await folder.requestAuthorization().allowsReading else {
            throw LibraryError.accessDenied(path: root.path, reason: "the folder does not exist or cannot be read")
        }
        return folder
    }
}
