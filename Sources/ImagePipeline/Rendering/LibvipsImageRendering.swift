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

    /// The quickest upright image of a photo that decodes nothing big: its preview (made ahead
    /// of time), else its EXIF thumbnail, else a HEIF file's thumbnail item.
    public func quickImage(_ source: ImageSourceFile, request: ImageRequest) -> ImageResult? {
        guard source.mediaType == .photo, !request.isFullResolution else { return nil }
        if let preview = source.previewURL, let bytes = try? Data(contentsOf: preview),
           var image = try? renderer.uprightThumbnail(jpeg: bytes, orientation: 1, name: source.url.path,
                                                      format: request.format, quality: request.quality) {
            image.source = .preview
            return image
        }
        if source.hasEmbeddedThumbnail, let bytes = try? EmbeddedThumbnail.extract(fromJPEGAt: source.url),
           let image = try? renderer.uprightThumbnail(jpeg: bytes, orientation: source.orientation, name: source.url.path,
                                                      format: request.format, quality: request.quality) {
            return image
        }
        guard Self.heifExtensions.contains(source.url.pathExtension.lowercased()) else { return nil }
        return (try? renderer.heifThumbnail(source.url, format: request.format, quality: request.quality)) ?? nil
    }

    /// File name extensions of HEIF photos, which may carry a thumbnail item.
    static let heifExtensions: Set<String> = ["heic", "heif", "hif"]
}
