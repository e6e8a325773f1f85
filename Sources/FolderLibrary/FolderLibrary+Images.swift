import AssetsKit
import Foundation
import ImagePipeline
import LibraryFolders

extension FolderLibrary {
    /// Renders the asset at the size and mode the request gives, as PhotoKit does and as the
    /// indexed library does, through ``imageManager``: memory cache, then the original.
    /// Opportunistic requests may first yield a degraded image (a smaller cached rendition or
    /// the embedded EXIF thumbnail). The fixed renditions AssetsLibrary kept are asked for by
    /// name, with ``image(for:representation:format:quality:)``.
    public func image(for asset: Asset, request: ImageRequest) -> AsyncThrowingStream<ImageResult, Error> {
        .producing { [self] continuation in
            let file = try await locate(asset)
            try await opening(file) {
                for try await result in imageManager.image(for: imageSource(of: asset, at: file), request: request) { continuation.yield(result) }
            }
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

    /// The file behind `asset` as the pipeline sees it: the version the library read, which a
    /// render opens confined to the library or not at all.
    func imageSource(of asset: Asset) async throws -> ImageSourceFile {
        imageSource(of: asset, at: try await locate(asset))
    }

    /// The source of `asset`, whose file is `file`.
    private func imageSource(of asset: Asset, at file: FileEntry) -> ImageSourceFile {
        var source = ImageSourceFile(asset: asset, original: originalLocation(of: file))
        source.byteSize = file.byteSize
        source.modificationDate = file.modificationDate
        return source
    }

    /// The sources of the assets still present.
    private func imageSources(of assets: [Asset]) async -> [ImageSourceFile] {
        var sources: [ImageSourceFile] = []
        for asset in assets {
            if let source = try? await imageSource(of: asset) { sources.append(source) }
        }
        return sources
    }
}
