import AssetsKit
import Foundation

/// A library whose images the pipeline makes: the one image seam every backend implements.
///
/// A backend says where the originals of a list of assets are (``imageSources(of:)``, one
/// lookup for any number of assets) and which ``CachingImageManager`` makes their images;
/// images, quick images and prefetch (`PhotoLibrary`'s image requirements) are written once,
/// in this protocol's extension, for every backend.
public protocol ImageSourcing: PhotoLibrary {
    /// Renders, caches and prefetches the images.
    var imageManager: CachingImageManager { get }

    /// The sources of those of `assets` still in the library, by UUID, found in one lookup:
    /// where each original is and the version the library knows. An asset that is gone has none.
    func imageSources(of assets: [Asset]) async throws -> [UUID: ImageSourceFile]

    /// Told when the original of `asset` turned out gone, changed or out of the library as an
    /// image of it was made, so that the library looks again; by default nothing is done.
    func originalWentAway(_ asset: Asset) async
}

extension ImageSourcing {
    public func originalWentAway(_ asset: Asset) async {}

    /// Renders the asset at the size and mode the request gives, through ``imageManager``:
    /// memory cache, disk cache, then the original. Opportunistic requests may first yield a
    /// degraded image (``CachingImageManager/image(for:request:)``).
    public func image(for asset: Asset, request: ImageRequest) -> AsyncThrowingStream<ImageResult, Error> {
        .producing { [self] continuation in
            let source = try await imageSource(of: asset)
            do {
                for try await result in imageManager.image(for: source, request: request) { continuation.yield(result) }
            } catch LibraryError.originalUnavailable(let name) {
                await originalWentAway(asset)
                throw LibraryError.originalUnavailable(file: name)
            }
        }
    }

    /// The quickest images of `assets` (``CachingImageManager/quickImage(of:for:)``: a preview,
    /// an embedded thumbnail, a smaller rendition at hand), their sources found in one lookup,
    /// made off the caller's thread as many at a time as there are cores; none is started
    /// after `deadline`, and those started finish.
    public func quickImages(for assets: [Asset], request: ImageRequest,
                            startingBefore deadline: ContinuousClock.Instant) async -> [UUID: ImageResult] {
        guard let found = try? await imageSources(of: assets) else { return [:] }
        let sources = assets.compactMap { asset in found[asset.id.uuid].map { (uuid: asset.id.uuid, source: $0) } }
        let width = max(1, ProcessInfo.processInfo.activeProcessorCount)
        var images: [UUID: ImageResult] = [:]
        await withTaskGroup(of: (UUID, ImageResult?).self) { group in
            var next = 0
            func startNext() {
                guard next < sources.count, next < width || ContinuousClock.now < deadline, !Task.isCancelled else { return }
                let (uuid, source) = sources[next]
                next += 1
                group.addTask { [imageManager] in (uuid, await imageManager.degradedQuickImage(of: source, for: request)) }
            }
            for _ in 0..<width { startNext() }
            while let (uuid, image) = await group.next() {
                if let image { images[uuid] = image }
                startNext()
            }
        }
        return images
    }

    public func startCaching(_ assets: [Asset], request: ImageRequest) async {
        imageManager.startCaching(await presentSources(of: assets), request: request)
    }

    public func stopCaching(_ assets: [Asset], request: ImageRequest) async {
        imageManager.stopCaching(await presentSources(of: assets), request: request)
    }

    public func stopCachingAll() async {
        imageManager.stopCachingAll()
    }

    /// The source of `asset`.
    /// - Throws: `LibraryError.assetNotFound(_:)` when it is no longer in the library.
    public func imageSource(of asset: Asset) async throws -> ImageSourceFile {
        guard let source = try await imageSources(of: [asset])[asset.id.uuid] else {
            throw LibraryError.assetNotFound(asset.id.description)
        }
        return source
    }

    /// The sources of those of `assets` still present, in order.
    private func presentSources(of assets: [Asset]) async -> [ImageSourceFile] {
        guard let found = try? await imageSources(of: assets) else { return [] }
        return assets.compactMap { found[$0.id.uuid] }
    }
}
