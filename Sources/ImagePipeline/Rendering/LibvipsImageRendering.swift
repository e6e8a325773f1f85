import AssetsKit
import Foundation
import ImageMetadata

/// The default ``ImageRendering``: libvips for photos, a poster frame through ffmpeg for videos.
///
/// Each render opens the original confined to its library (`OriginalLocation.open()`)
/// and reads only that open file: libvips through `/proc/self/fd/N`, ffmpeg through the same
/// descriptor as a child process sees it. An original kept elsewhere is fetched first, when the
/// request allows network access (``ImageSourceFile/fetchOriginal(allowingNetwork:progress:)``),
/// unless the preview is large enough for the image asked for
/// (``ImageSourceFile/rendersFromPreview(_:)``).
public struct LibvipsImageRendering: ImageRendering {
    public let renderer: ImageRenderer

    public init(renderer: ImageRenderer = ImageRenderer()) {
        self.renderer = renderer
    }

    public func render(_ source: ImageSourceFile, request: ImageRequest) async throws -> ImageResult {
        if source.rendersFromPreview(request), let preview = source.previewURL {
            // The preview is upright already and read from this machine's own folder of previews.
            return try await BlockingWork.run(.rendering) {
                try renderer.render(preview, size: request.targetSize, mode: request.contentMode, format: request.format,
                                    quality: request.quality, resizeMode: request.resizeMode)
            }
        }
        try await source.fetchOriginal(allowingNetwork: request.isNetworkAccessAllowed)
        let original = try source.original.open()
        defer { withExtendedLifetime(original) {} }
        do {
            switch source.mediaType {
            case .photo where request.isFullResolution:
                return try await BlockingWork.run(.rendering) { try renderer.fullResolution(original.url, format: request.format, quality: request.quality) }
            case .photo:
                return try await BlockingWork.run(.rendering) {
                    try renderer.render(original.url, size: request.targetSize, mode: request.contentMode, format: request.format,
                                        quality: request.quality, resizeMode: request.resizeMode)
                }
            case .video:
                let target = request.isFullResolution ? source.pixelSize : request.targetSize
                let frameSize = request.contentMode == .fill ? source.pixelSize.covering(target) : target
                let frame = try await VideoPosterFrame.extract(from: original.urlForChildProcess, maxSize: frameSize, at: source.posterFramePosition)
                try Task.checkCancellation()
                return try await BlockingWork.run(.rendering) {
                    try renderer.render(data: frame, name: original.filename, size: target, mode: request.contentMode,
                                        format: request.format, quality: request.quality, source: .videoFrame)
                }
            }
        } catch {
            throw original.naming(error)
        }
    }

    /// The quickest upright image of a photo that decodes nothing big: its preview (made ahead
    /// of time; a video's too, when it has one), else its EXIF thumbnail, else a HEIF file's
    /// thumbnail item. The original is
    /// opened (confined) only when there is no preview.
    public func quickImage(_ source: ImageSourceFile, request: ImageRequest) -> ImageResult? {
        guard !request.isFullResolution else { return nil }
        let name = source.original.filename
        // A video has a preview (its poster frame) when its original is kept elsewhere.
        if let preview = source.previewURL, let bytes = try? Data(contentsOf: preview),
           var image = try? renderer.uprightThumbnail(jpeg: bytes, orientation: 1, name: name,
                                                      format: request.format, quality: request.quality) {
            image.source = .preview
            return image
        }
        guard source.mediaType == .photo else { return nil }
        let isHEIF = Self.heifExtensions.contains((name as NSString).pathExtension.lowercased())
        guard source.hasEmbeddedThumbnail || isHEIF, let original = try? source.original.open() else { return nil }
        defer { withExtendedLifetime(original) {} }
        if source.hasEmbeddedThumbnail, let bytes = try? EmbeddedThumbnail.extract(fromJPEGAt: original.url),
           let image = try? renderer.uprightThumbnail(jpeg: bytes, orientation: source.orientation, name: name,
                                                      format: request.format, quality: request.quality) {
            return image
        }
        guard isHEIF else { return nil }
        return (try? renderer.heifThumbnail(original.url, format: request.format, quality: request.quality)) ?? nil
    }

    /// File name extensions of HEIF photos, which may carry a thumbnail item.
    static let heifExtensions: Set<String> = ["heic", "heif", "hif"]
}
