import AssetsKit
import Foundation
import ImagePipeline

/// The indexed library's images are the pipeline's (``ImagePipeline/ImageSourcing``): it says
/// where each asset's original is, as the index knows it now, and where its preview is.
extension IndexedLibrary: ImageSourcing {
    /// The originals of those `assets` the index still has (Recently Deleted included), read
    /// in one query, each with where its preview is when it gets one.
    public func imageSources(of assets: [Asset]) async throws -> [UUID: ImageSourceFile] {
        var sources: [UUID: ImageSourceFile] = [:]
        for (uuid, record) in try await index.records(uuids: assets.map(\.id.uuid)) {
            var source = try await imageSource(of: record)
            if wantsPreview(source) {
                source.previewURL = previews?.url(for: source.version)
            }
            sources[uuid] = source
        }
        return sources
    }

    /// The original behind `record`, as the index knows it now (without its preview), with what
    /// fetches it when its store keeps it elsewhere.
    func imageSource(of record: AssetRecord) async throws -> ImageSourceFile {
        var source = ImageSourceFile(
            assetKey: record.uuid.uuidString, original: try await originalLocation(of: record), byteSize: record.byteSize,
            modificationDate: record.modificationDate, mediaType: MediaType(databaseCode: record.mediaType),
            pixelSize: PixelSize(width: record.pixelWidth, height: record.pixelHeight),
            orientation: record.orientation, hasEmbeddedThumbnail: record.hasEmbeddedThumbnail, duration: record.duration)
        source.fetcher = originals.fetcher
        return source
    }

    /// Which assets get a preview: photos without an embedded EXIF thumbnail, or every asset when
    /// the originals are kept elsewhere (reading that thumbnail would need the original).
    var previewCoverage: PreviewCoverage {
        originals.fetcher == nil ? .photosWithoutThumbnail : .everyAsset
    }

    /// Whether `source` gets a preview under ``previewCoverage``.
    func wantsPreview(_ source: ImageSourceFile) -> Bool {
        switch previewCoverage {
        case .photosWithoutThumbnail: source.mediaType == .photo && !source.hasEmbeddedThumbnail
        case .everyAsset: true
        }
    }
}
