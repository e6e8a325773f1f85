import AssetsKit
import Foundation
import ImagePipeline
import MediaProbing
import Testing
import TestSupport

/// Image sources made from corpus files, each under its own asset key.
enum TestSources {
    static func source(_ relativePath: String, key: String? = nil) async throws -> ImageSourceFile {
        try await source(at: Corpus.file(relativePath), key: key ?? relativePath)
    }

    static func source(at url: URL, key: String) async throws -> ImageSourceFile {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        let metadata = try await MediaMetadataReader().read(url, as: .photo)
        return ImageSourceFile(assetKey: key, original: try #require(OriginalLocation(currentFileAt: url)), byteSize: (attributes[.size] as? NSNumber)?.int64Value ?? 0,
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
