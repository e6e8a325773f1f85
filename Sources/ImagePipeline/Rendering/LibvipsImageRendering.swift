import AssetsKit
import Foundation
import ImageMetadata

/// The default ``ImageRendering``: libvips for photos, a poster frame through ffmpeg for videos.
public struct LibvipsImageRendering: ImageRendering {
    public let renderer: ImageRenderer

    public init(renderer: ImageRenderer = ImageRenderer()) {
        self.renderer = renderer
    }

    public func render(_ source: ImageSourceFile, request: ImageRequest) async throws -> ImageResult {
        switch source.mediaType {
        case .photo where request.isFullResolution:
            return try await BlockingWork.run { try renderer.fullResolution(source.url, format: request.format, quality: request.quality) }
        case .photo:
            return try await BlockingWork.run {
                try renderer.render(source.url, size: request.targetSize, mode: request.contentMode, format: request.format,
                                    quality: request.quality, resizeMode: request.resizeMode)
            }
        case .video:
            let target = request.isFullResolution ? source.pixelSize : request.targetSize
            let frameSize = request.contentMode == .fill ? source.pixelSize.covering(target) : target
            let frame = try await VideoPosterFrame.extract(from: source.url, maxSize: frameSize, at: nil)
            try Task.checkCancellation()
            return try await BlockingWork.run {
                try renderer.render(data: frame, name: source.url.path, size: target, mode: request.contentMode,
                                    format: request.format, quality: request.quality, source: .videoFrame)
            }
        }
    }

    public func quickImage(_ source: ImageSourceFile, request: ImageRequest) -> ImageResult? {
        guard source.mediaType == .photo, source.hasEmbeddedThumbnail, !request.isFullResolution,
              let bytes = try? EmbeddedThumbnail.extract(fromJPEGAt: source.url) else { return nil }
        return try? renderer.uprightThumbnail(jpeg: bytes, orientation: source.orientation, name: source.url.path,
                                              format: request.format, quality: request.quality)
    }
}
