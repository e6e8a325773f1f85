import AssetsKit
import Foundation
import ImagePipeline

extension FolderLibrary {
    /// Answers an image request from the fixed representations, as AssetsLibrary did.
    ///
    /// ``Representation/answering(_:original:)`` picks the rendition. With
    /// ``DeliveryMode/opportunistic`` the stream first yields a quick degraded image (the
    /// embedded EXIF thumbnail, or a smaller rendition already cached) when it is smaller than
    /// the answer, and the square thumbnail when the rule picks it (a crop, so degraded); it
    /// ends with one final image: the picked rendition, or the aspect-ratio thumbnail after a
    /// square one. ``DeliveryMode/highQualityFormat`` yields only that final image;
    /// ``DeliveryMode/fastFormat`` yields one image, the quickest: the quick image when there
    /// is one, else the picked rendition. Renditions come through the library's
    /// ``CachingImageManager``, so they are cached and shared.
    public func image(for asset: Asset, request: ImageRequest) -> AsyncThrowingStream<ImageResult, Error> {
        .producing { [self] continuation in
            try await deliverImages(of: asset, for: request) { continuation.yield($0) }
        }
    }

    public func startCaching(_ assets: [Asset], request: ImageRequest) async {
        for (source, representationRequest) in await prefetchPlan(assets, request: request) {
            imageManager.startCaching([source], request: representationRequest)
        }
    }

    public func stopCaching(_ assets: [Asset], request: ImageRequest) async {
        for (source, representationRequest) in await prefetchPlan(assets, request: request) {
            imageManager.stopCaching([source], request: representationRequest)
        }
    }

    public func stopCachingAll() async {
        imageManager.stopCachingAll()
    }

    private func deliverImages(of asset: Asset, for request: ImageRequest, yield: (ImageResult) -> Void) async throws {
        let source = try await imageSource(of: asset)
        let (picked, pickedIsDegraded) = Representation.answering(request.targetSize, original: asset.pixelSize)
        let final = pickedIsDegraded ? Representation.aspectRatioThumbnail : picked
        let finalRequest = Self.request(for: final, of: asset, like: request)
        switch request.deliveryMode {
        case .opportunistic:
            if !request.isFullResolution, var quick = imageManager.quickImage(of: source, for: finalRequest) {
                quick.isDegraded = true
                yield(quick)
            }
            if pickedIsDegraded {
                var square = try await render(picked, of: source, asset: asset, like: request)
                square.isDegraded = true
                yield(square)
            }
            yield(try await render(final, of: source, asset: asset, like: request))
        case .highQualityFormat:
            yield(try await render(final, of: source, asset: asset, like: request))
        case .fastFormat:
            if !request.isFullResolution, var quick = imageManager.quickImage(of: source, for: finalRequest) {
                quick.isDegraded = false
                yield(quick)
            } else {
                yield(try await render(picked, of: source, asset: asset, like: request))
            }
        }
    }

    private func render(_ representation: Representation, of source: ImageSourceFile, asset: Asset,
                        like request: ImageRequest) async throws -> ImageResult {
        let representationRequest = Self.request(for: representation, of: asset, like: request)
        var result: ImageResult?
        for try await answer in imageManager.image(for: source, request: representationRequest) { result = answer }
        guard var result else { throw CancellationError() }
        result.source = representation.imageSource
        return result
    }

    /// The request that renders `representation` in the caller's format and quality.
    static func request(for representation: Representation, of asset: Asset, like request: ImageRequest) -> ImageRequest {
        let bounds = switch representation {
        case .squareThumbnail: PixelSize(width: Representation.squareSide, height: Representation.squareSide)
        case .aspectRatioThumbnail: PixelSize(width: Representation.aspectRatioLongestSide, height: Representation.aspectRatioLongestSide)
        case .fullScreen: Representation.fullScreenBounds
        case .fullResolution: PixelSize.maximum
        }
        return ImageRequest(targetSize: bounds, contentMode: representation.contentMode, deliveryMode: .highQualityFormat,
                            resizeMode: request.resizeMode, format: request.format, quality: request.quality,
                            isNetworkAccessAllowed: request.isNetworkAccessAllowed)
    }

    /// The file behind `asset` as the pipeline sees it: the version on disk now.
    func imageSource(of asset: Asset) async throws -> ImageSourceFile {
        let file = try await locate(asset)
        var source = ImageSourceFile(asset: asset, url: file.url)
        source.byteSize = file.byteSize
        source.modificationDate = file.modificationDate
        return source
    }

    /// For each asset still present, its source and the representation request `request` maps to.
    private func prefetchPlan(_ assets: [Asset], request: ImageRequest) async -> [(ImageSourceFile, ImageRequest)] {
        var plan: [(ImageSourceFile, ImageRequest)] = []
        for asset in assets {
            guard let source = try? await imageSource(of: asset) else { continue }
            let (picked, _) = Representation.answering(request.targetSize, original: asset.pixelSize)
            plan.append((source, Self.request(for: picked, of: asset, like: request)))
        }
        return plan
    }
}
