import AssetsKit
import Foundation

/// What a media file tells about itself: everything an ``Asset`` needs but its identity and
/// file attributes.
public struct MediaMetadata: Sendable, Hashable {
    public var mediaType: MediaType
    /// Upright size.
    public var pixelSize: PixelSize
    /// The recorded capture time, when the file has a plausible one.
    public var creationDate: Date?
    public var timeZoneOffset: Int?
    /// Seconds, for videos.
    public var duration: Double?
    /// Frames per second, for videos whose stream records a rate.
    public var framesPerSecond: Double?
    public var orientation: Int
    public var location: GeoLocation?
    public var camera: Camera?
    public var format: String
    public var hasEmbeddedThumbnail: Bool

    public init(mediaType: MediaType, pixelSize: PixelSize, creationDate: Date? = nil, timeZoneOffset: Int? = nil,
                duration: Double? = nil, framesPerSecond: Double? = nil, orientation: Int = 1, location: GeoLocation? = nil, camera: Camera? = nil,
                format: String, hasEmbeddedThumbnail: Bool = false) {
        self.mediaType = mediaType
        self.pixelSize = pixelSize
        self.creationDate = creationDate
        self.timeZoneOffset = timeZoneOffset
        self.duration = duration
        self.framesPerSecond = framesPerSecond
        self.orientation = orientation
        self.location = location
        self.camera = camera
        self.format = format
        self.hasEmbeddedThumbnail = hasEmbeddedThumbnail
    }
}
