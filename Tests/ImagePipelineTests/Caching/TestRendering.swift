import AssetsKit
import Foundation
import ImagePipeline
import MediaProbing
import Synchronization
import TestSupport

/// A renderer for tests: real libvips renders, optionally held until the test lets them go,
/// with a log of what started in which order.
final class TestRendering: ImageRendering {
    private let heldPrefix: String?
    private let real = LibvipsImageRendering()
    private let log = Mutex<[String]>([])
    private let hold = Mutex<(released: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    /// - Parameter heldPrefix: Renders of asset keys with this prefix (`""`: every render) wait
    ///   for ``releaseHeld()``: a decode as slow as the test needs, whatever the machine's load.
    init(holding heldPrefix: String? = nil) {
        self.heldPrefix = heldPrefix
    }

    /// The asset keys of the renders started, in order.
    var started: [String] { log.withLock { $0 } }

    /// Lets held renders (and those that come later) go on.
    func releaseHeld() {
        let waiting = hold.withLock { state in
            state.released = true
            defer { state.waiting = [] }
            return state.waiting
        }
        waiting.forEach { $0.resume() }
    }

    func render(_ source: ImageSourceFile, request: ImageRequest) async throws -> ImageResult {
        log.withLock { $0.append(source.assetKey) }
        if let heldPrefix, source.assetKey.hasPrefix(heldPrefix) {
            await withCheckedContinuation { continuation in
                let released = hold.withLock { state in
                    if !state.released { state.waiting.append(continuation) }
                    return state.released
                }
                if released { continuation.resume() }
            }
        }
        return try await real.render(source, request: request)
    }

    func quickImage(_ source: ImageSourceFile, request: ImageRequest) -> ImageResult? {
        real.quickImage(source, request: request)
    }
}

/// Image sources made from corpus files, each under its own asset key.
enum TestSources {
    static func source(_ relativePath: String, key: String? = nil) async throws -> ImageSourceFile {
        try await source(at: Corpus.file(relativePath), key: key ?? relativePath)
    }

    static func source(at url: URL, key: String) async throws -> ImageSourceFile {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        let metadata = try await MediaMetadataReader().read(url, as: .photo)
        return ImageSourceFile(assetKey: key, url: url, byteSize: (attributes[.size] as? NSNumber)?.int64Value ?? 0,
                               modificationDate: attributes[.modificationDate] as? Date ?? Date(), mediaType: .photo,
                               pixelSize: metadata.pixelSize, orientation: metadata.orientation,
                               hasEmbeddedThumbnail: metadata.hasEmbeddedThumbnail)
    }

    static func temporaryDirectory() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pipeline-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
