import AssetsKit
import Foundation
import ImageMetadata
import ImagePipeline

extension FolderLibrary {
    /// Answers an image request from the fixed representations, as AssetsLibrary did.
    ///
    /// ``Representation/answering(_:original:)`` picks the rendition. With
    /// ``DeliveryMode/opportunistic`` the stream first yields the embedded EXIF thumbnail of a
    /// JPEG (when it is smaller than the answer), and the square thumbnail when the rule picks
    /// it (a crop, so degraded); it ends with one final image: the picked rendition, or the
    /// aspect-ratio thumbnail after a square one. ``DeliveryMode/highQualityFormat`` yields
    /// only that final image; ``DeliveryMode/fastFormat`` yields one image, the quickest: the
    /// EXIF thumbnail when there is one, else the picked rendition.
    public func image(for asset: Asset, request: ImageRequest) -> AsyncThrowingStream<ImageResult, Error> {
        let (stream, continuation) = AsyncThrowingStream<ImageResult, Error>.makeStream()
        let task = Task {
            do {
                try await deliverImages(of: asset, for: request) { continuation.yield($0) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private func deliverImages(of asset: Asset, for request: ImageRequest, yield: (ImageResult) -> Void) async throws {
        let file = try await locate(asset)
        let (picked, pickedIsDegraded) = Representation.answering(request.targetSize, original: asset.pixelSize)
        let final = pickedIsDegraded ? Representation.aspectRatioThumbnail : picked
        switch request.deliveryMode {
        case .opportunistic:
            if let thumbnail = embeddedThumbnail(of: asset, file: file, request: request),
               thumbnail.pixelSize.area < final.pixelSize(forOriginal: asset.pixelSize).area {
                yield(thumbnail)
            }
            if pickedIsDegraded {
                var square = try await render(picked, of: asset, file: file, request: request)
                square.isDegraded = true
                yield(square)
            }
            yield(try await render(final, of: asset, file: file, request: request))
        case .highQualityFormat:
            yield(try await render(final, of: asset, file: file, request: request))
        case .fastFormat:
            if var thumbnail = embeddedThumbnail(of: asset, file: file, request: request) {
                thumbnail.isDegraded = false
                yield(thumbnail)
            } else {
                yield(try await render(picked, of: asset, file: file, request: request))
            }
        }
    }

    /// The embedded EXIF thumbnail of a JPEG, upright, marked degraded; `nil` when there is
    /// none or it is unusable (a damaged thumbnail never fails the request).
    private func embeddedThumbnail(of asset: Asset, file: FileEntry, request: ImageRequest) -> ImageResult? {
        guard asset.hasEmbeddedThumbnail, !request.isFullResolution,
              let bytes = try? EmbeddedThumbnail.extract(fromJPEGAt: file.url) else { return nil }
        return try? renderer.uprightThumbnail(jpeg: bytes, orientation: asset.orientation, name: file.url.path,
                                              format: request.format, quality: request.quality)
    }

    private func render(_ representation: Representation, of asset: Asset, file: FileEntry,
                        request: ImageRequest) async throws -> ImageResult {
        try Task.checkCancellation()
        let bounds = switch representation {
        case .squareThumbnail: PixelSize(width: Representation.squareSide, height: Representation.squareSide)
        case .aspectRatioThumbnail: PixelSize(width: Representation.aspectRatioLongestSide, height: Representation.aspectRatioLongestSide)
        case .fullScreen: Representation.fullScreenBounds
        case .fullResolution: asset.pixelSize
        }
        switch asset.mediaType {
        case .photo where representation == .fullResolution:
            return try renderer.fullResolution(file.url, format: request.format, quality: request.quality)
        case .photo:
            var result = try renderer.render(file.url, size: bounds, mode: representation.contentMode,
                                             format: request.format, quality: request.quality)
            result.source = representation.imageSource
            return result
        case .video:
            let frameSize = representation.contentMode == .fill ? asset.pixelSize.covering(bounds) : bounds
            let frame = try await VideoPosterFrame.extract(from: file.url, maxSize: frameSize, at: nil)
            try Task.checkCancellation()
            return try renderer.render(data: frame, name: file.url.path, size: bounds, mode: representation.contentMode,
                                       format: request.format, quality: request.quality, source: representation.imageSource)
        }
    }
}
