import ArgumentParser
import AssetsKit
import DemoLibrary
import FolderLibrary
import Foundation
import ImagePipeline

/// The options every command takes to choose and open a library.
struct LibraryOptions: ParsableArguments {
    @Option(name: .long, help: "The library folder (default: the demo library).",
            completion: .directory, transform: { URL(fileURLWithPath: $0) })
    var library: URL?

    @Option(name: .long, help: "Which backend opens the library: auto or folder.")
    var backend: BackendChoice = .auto

    @Option(name: .long, help: "Refuse images with more pixels than this (checked before decoding).")
    var maxPixels: Int = PipelineConfiguration().maxPixels

    @Flag(name: .long, help: "Print one JSON document on stdout instead of text.")
    var json = false

    /// Opens the library the options name, creating the demo library when none is named.
    func open() async throws -> any PhotoLibrary {
        let root: URL
        if let library {
            root = library
        } else {
            root = try await DemoLibrary.prepare()
        }
        let renderer = ImageRenderer(configuration: PipelineConfiguration(maxPixels: maxPixels))
        let reader = MediaMetadataReader(renderer: renderer)
        let manager = CachingImageManager(diskCache: Self.diskCache(), rendering: LibvipsImageRendering(renderer: renderer))
        switch backend {
        case .auto, .folder:
            let folder = FolderLibrary(root: root, reader: reader, imageManager: manager)
            guard await folder.requestAuthorization().allowsReading else {
                throw LibraryError.accessDenied(path: root.path, reason: "the folder does not exist or cannot be read")
            }
            return folder
        }
    }
}

extension LibraryOptions {
    /// Renditions kept between runs in `$XDG_CACHE_HOME/assets-picker/renditions` (or
    /// `~/.cache/...`), up to 1 GiB; none when that folder cannot be made.
    static func diskCache() -> DiskImageCache? {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache", isDirectory: true)
        return try? DiskImageCache(directory: base.appendingPathComponent("assets-picker/renditions", isDirectory: true), byteLimit: 1 << 30)
    }
}

/// The library backends a command can ask for.
enum BackendChoice: String, ExpressibleByArgument, CaseIterable {
    /// The best backend that can open the library.
    case auto
    /// The live folder enumeration, read-only.
    case folder
}

extension MediaFilter: ExpressibleByArgument {}
extension DateOrder: ExpressibleByArgument {}
extension ContentMode: ExpressibleByArgument {}
extension ImageFormat: ExpressibleByArgument {}
extension DeliveryMode: ExpressibleByArgument {}
extension ResizeMode: ExpressibleByArgument {}
