import AssetsKit
import Foundation
import ImageMetadata

/// Reads a media file's metadata: a libvips header read and the EXIF block for photos,
/// ffprobe for videos. Nothing is decoded.
public struct MediaMetadataReader: Sendable {
    public let renderer: ImageRenderer
    private let now: @Sendable () -> Date

    /// - Parameter now: The present, for rejecting capture dates in the future (a camera with
    ///   an unset clock); injectable for tests.
    public init(renderer: ImageRenderer = ImageRenderer(), now: @escaping @Sendable () -> Date = { Date() }) {
        self.renderer = renderer
        self.now = now
    }

    /// Reads the metadata of a photo or video file.
    public func read(_ url: URL, as mediaType: MediaType) async throws -> MediaMetadata {
        switch mediaType {
        case .photo: try await BlockingWork.run { try readPhoto(url) }
        case .video: try await readVideo(url)
        }
    }

    private func readPhoto(_ url: URL) throws -> MediaMetadata {
        let header = try renderer.header(of: url)
        let size = header.storedSize
        if size.area > renderer.configuration.maxPixels {
            throw ImagePipelineError.tooManyPixels(file: url.path, pixels: size.area, limit: renderer.configuration.maxPixels)
        }
        var metadata = MediaMetadata(mediaType: .photo, pixelSize: header.uprightSize,
                                     orientation: header.orientation, format: header.format)
        guard let block = header.exif, let exif = try? ExifReader.parse(block) else { return metadata }
        if let captured = exif.dateTimeOriginal {
            let date = captured.date(offsetSeconds: exif.offsetTimeOriginal)
            if date <= now().addingTimeInterval(86_400) {
                metadata.creationDate = date
                metadata.timeZoneOffset = exif.offsetTimeOriginal
            }
        }
        if let gps = exif.gps {
            metadata.location = GeoLocation(latitude: gps.latitude, longitude: gps.longitude, altitude: gps.altitude)
        }
        if exif.make != nil || exif.model != nil {
            metadata.camera = Camera(make: exif.make, model: exif.model)
        }
        metadata.hasEmbeddedThumbnail = header.format == "jpeg" && exif.thumbnail != nil
        return metadata
    }

    private func readVideo(_ url: URL) async throws -> MediaMetadata {
        let info = try await VideoProbe.probe(url)
        return MediaMetadata(mediaType: .video, pixelSize: info.uprightSize, creationDate: info.creationDate,
                             duration: info.duration, format: info.formatName)
    }
}
