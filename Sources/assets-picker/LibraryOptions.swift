import ArgumentParser
import AssetsKit
import DemoLibrary
import Foundation
import ImagePipeline
import LibraryOpening
import MediaProbing

/// The options every command takes to choose and open a library.
struct LibraryOptions: ParsableArguments {
    @Option(name: .long, help: "The library folder, or a bucket as s3://BUCKET/PREFIX (default: the demo library).",
            completion: .directory, transform: LibraryPlace.url)
    var library: URL?

    @OptionGroup(title: "Buckets") var bucket: BucketOptions

    @OptionGroup(title: "Database") var database: DatabaseOptions

    @Option(name: .long, help: ArgumentHelp("Which backend opens the library: auto, indexed or folder.", discussion: """
        auto: the indexed library when the library has an index (commands that change or serve \
        the library make one when missing), else the folder library. indexed: the index, made \
        when missing. folder: a live walk of the folder, no index.
        """))
    var backend: BackendChoice = .auto

    @Option(name: .long, help: "The index file (default: $XDG_DATA_HOME/assets-picker/libraries/<name>-<key>/library.sqlite, one per library folder or bucket).",
            completion: .file(), transform: { URL(fileURLWithPath: $0) })
    var index: URL?

    @Option(name: .long, help: "Refuse images with more pixels than this (checked before decoding).")
    var maxPixels: Int = PipelineConfiguration().maxPixels

    @Flag(name: .long, help: "Print one JSON document on stdout instead of text.")
    var json = false

    /// Opens the library the options name with the backend asked for, creating the demo
    /// library (and its index) when none is named. A new index is scanned first, with a progress bar on a terminal.
    /// - Parameter mayCreateIndex: Whether `--backend auto` may make a missing index: only
    ///   commands that change or serve the library pass `true`; reading commands never make one.
    func open(mayCreateIndex: Bool = false) async throws -> any PhotoLibrary {
        let root: URL
        var mayCreateIndex = mayCreateIndex
        if let library {
            root = library
        } else {
            root = try await DemoLibrary.prepare()
            mayCreateIndex = true // the demo library is the tool's own: always shown indexed
        }
        let opener = try opener()
        let indexURL = index ?? opener.defaultIndexURL(forRoot: root)
        let bar = TerminalProgress(label: "Indexing")
        let library = try await opener.open(root: root, backend: backend, indexURL: indexURL, mayCreateIndex: mayCreateIndex) { progress in
            bar.update(done: progress.processed, failed: 0, total: progress.discovered)
        }
        bar.finish()
        return library
    }

    /// The opener with this command's pixel limit and the shared rendition cache.
    /// - Throws: A `ValidationError` for a `--database` (or `ASSETS_PICKER_DATABASE_URL`) that is not a PostgreSQL URL.
    func opener() throws -> LibraryOpener {
        let renderer = ImageRenderer(configuration: PipelineConfiguration(maxPixels: maxPixels))
        return LibraryOpener(reader: MediaMetadataReader(renderer: renderer),
                             imageManager: CachingImageManager(diskCache: Self.diskCache(), rendering: LibvipsImageRendering(renderer: renderer)),
                             bucketConnection: bucket.connection, database: try database.indexDatabase())
    }
}

extension LibraryOptions {
    /// Renditions kept between runs in `$XDG_CACHE_HOME/assets-picker/renditions` (or
    /// `~/.cache/...`), up to 1 GiB; none when that folder cannot be made.
    static func diskCache() -> DiskImageCache? {
        try? DiskImageCache(directory: UserFolders.cache().appendingPathComponent("renditions", isDirectory: true), byteLimit: 1 << 30)
    }
}

/// The library backends a command can ask for: auto, indexed or folder.
typealias BackendChoice = LibraryBackend

extension LibraryBackend: ExpressibleByArgument {}
extension MediaFilter: ExpressibleByArgument {}
extension DateOrder: ExpressibleByArgument {}
extension ContentMode: ExpressibleByArgument {}
extension ImageFormat: ExpressibleByArgument {}
extension DeliveryMode: ExpressibleByArgument {}
extension ResizeMode: ExpressibleByArgument {}
