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
        let reader = MediaMetadataReader(renderer: ImageRenderer(configuration: PipelineConfiguration(maxPixels: maxPixels)))
        switch backend {
        case .auto, .folder:
            let folder = FolderLibrary(root: root, reader: reader)
            guard await folder.requestAuthorization().allowsReading else {
                throw LibraryError.accessDenied(path: root.path, reason: "the folder does not exist or cannot be read")
            }
            return folder
        }
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
