import AssetsKit
import Foundation
import ImageMetadata
import ImagePipeline

/// Reads a media file's metadata: the header and the EXIF block for photos, ffprobe for
/// videos. Nothing is decoded.
///
/// A JPEG header is read natively (``JPEGHeader``) when it is one libjpeg reads without
/// complaint; every other photo, and any JPEG that reader does not vouch for, is opened by
/// libvips, so a damaged file gets libvips' verdict.
public struct MediaMetadataReader: Sendable {
    public let renderer: ImageRenderer
    private let now: @Sendable () -> Date
    private let readsJPEGNatively: Bool

    /// - Parameters:
    ///   - now: The present, for rejecting capture dates in the future (a camera with an unset
    ///     clock); injectable for tests.
    ///   - readsJPEGNatively: Whether JPEG headers are read without libvips when they can be
    ///     (about a hundred times faster); `false` opens every photo with libvips, the reference.
    public init(renderer: ImageRenderer = ImageRenderer(), now: @escaping @Sendable () -> Date = { Date() },
                readsJPEGNatively: Bool = true) {
        self.renderer = renderer
        self.now = now
        self.readsJPEGNatively = readsJPEGNatively
    }

    /// Reads the metadata of a photo or video file.
    public func read(_ url: URL, as mediaType: MediaType) async throws -> MediaMetadata {
        switch mediaType {
        case .photo: try await BlockingWork.run(.brief) { try readPhoto(url) }
        case .video: try await readVideo(url)
        }
    }

    private func readPhoto(_ url: URL) throws -> MediaMetadata {
        let (header, exif) = try header(of: url)
        let size = header.storedSize
        if size.area > renderer.configuration.maxPixels {
            throw ImagePipelineError.tooManyPixels(file: url.path, pixels: size.area, limit: renderer.configuration.maxPixels)
        }
        var metadata = MediaMetadata(mediaType: .photo, pixelSize: header.uprightSize,
                                     orientation: header.orientation, format: header.format)
        guard let exif else { return metadata }
        if let captured = exif.dateTimeOriginal,
           !captured.isInFuture(relativeTo: now().addingTimeInterval(86_400), offsetSeconds: exif.offsetTimeOriginal) {
            metadata.creationDate = captured.date(offsetSeconds: exif.offsetTimeOriginal)
            metadata.timeZoneOffset = exif.offsetTimeOriginal
        }
        metadata.location = exif.gps
        if exif.make != nil || exif.model != nil {
            metadata.camera = Camera(make: exif.make, model: exif.model)
        }
        metadata.hasEmbeddedThumbnail = header.format == "jpeg" && exif.thumbnail != nil
        return metadata
    }

    /// The photo's header (natively for a JPEG whose header ``JPEGHeader`` vouches for, else
    /// libvips') and its EXIF block parsed, once: the native path takes the orientation from it.
    private func header(of url: URL) throws -> (ImageHeader, ExifMetadata?) {
        guard readsJPEGNatively, let jpeg = try? JPEGHeader.read(contentsOf: url) else {
            let header = try renderer.header(of: url)
            return (header, header.exif.flatMap { try? ExifReader.parse($0) })
        }
        let exif = jpeg.exif.flatMap { try? ExifReader.parse($0) }
        let header = ImageHeader(storedSize: PixelSize(width: jpeg.width, height: jpeg.height), orientation: exif?.orientation ?? 1,
                                 pageCount: 1, hasAlpha: false, format: "jpeg", exif: jpeg.exif)
        return (header, exif)
    }

    private func readVideo(_ url: URL) async throws -> MediaMetadata {
        let info = try await VideoProbe.probe(url)
        return MediaMetadata(mediaType: .video, pixelSize: info.uprightSize, creationDate: info.creationDate,
                             duration: info.duration, framesPerSecond: info.framesPerSecond, format: info.formatName)
    }
}
