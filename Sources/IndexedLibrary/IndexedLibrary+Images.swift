import AssetsKit
import Foundation
import ImagePipeline

extension IndexedLibrary {
    /// Renders the asset at exactly the size the request gives (as PhotoKit does, not from
    /// fixed representations), through ``imageManager``: memory cache, disk cache, then the
    /// original. Opportunistic requests may first yield a degraded image.
    public func image(for asset: Asset, request: ImageRequest) -> AsyncThrowingStream<ImageResult, Error> {
        .producing { [self] continuation in
            let source = try await imageSource(of: asset)
            for try await result in imageManager.image(for: source, request: request) { continuation.yield(result) }
        }
    }

    /// The preview, embedded thumbnail or smaller rendition at hand, off the caller's thread
    /// (`CachingImageManager.degradedQuickImage(of:for:)`).
    public func quickImage(for asset: Asset, request: ImageRequest) async -> ImageResult? {
        guard let source = try? await imageSource(of: asset) else { return nil }
        return await imageManager.degradedQuickImage(of: source, for: request)
    }

    public func startCaching(_ assets: [Asset], request: ImageRequest) async {
        imageManager.startCaching(await imageSources(of: assets), request: request)
    }

    public func stopCaching(_ assets: [Asset], request: ImageRequest) async {
        imageManager.stopCaching(await imageSources(of: assets), request: request)
    }

    public func stopCachingAll() async {
        imageManager.stopCachingAll()
    }

    /// The original behind `asset` as the index knows it now (its current path and version),
    /// with where its preview is when it gets one.
    func imageSource(of asset: Asset) async throws -> ImageSourceFile {
        let record = try await record(of: asset)
        var source = ImageSourceFile(
            assetKey: record.uuid.uuidString, original: try await originalLocation(of: record), byteSize: record.byteSize,
            modificationDate: Date(timeIntervalSince1970: Double(record.modificationTime) / 1e9),
            mediaType: MediaType(databaseCode: record.mediaType), pixelSize: PixelSize(width: record.pixelWidth, height: record.pixelHeight),
            orientation: record.orientation, hasEmbeddedThumbnail: record.hasEmbeddedThumbnail)
        if Self.wantsPreview(mediaType: source.mediaType, hasEmbeddedThumbnail: source.hasEmbeddedThumbnail) {
            source.previewURL = previews?.url(for: source.version)
        }
        return source
    }

    /// The sources of the assets still in the library.
    private func imageSources(of assets: [Asset]) async -> [ImageSourceFile] {
        var sources: [ImageSourceFile] = []
        for asset in assets {
            if let source = try? await imageSource(of: asset) { sources.append(source) }
        }
        return sources
    }
}
