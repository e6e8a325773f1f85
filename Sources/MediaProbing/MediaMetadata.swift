import AssetsKit
import Foundation

/// What a media file tells about itself: everything an ``Asset`` needs but its identity and
/// file attributes.
public struct MediaMetadata: Sendable, Hashable {
    // What the file is.

    /// Whether the file is a photo or a video.
    public var mediaType: MediaType
    /// The file format, as a short lower-case name (`jpeg`, `png`, or FFmpeg's container name).
    public var format: String
    /// Upright size.
    public var pixelSize: PixelSize
    /// The photo's EXIF orientation (1...8; 1 is upright); 1 for a video, whose size is already turned.
    public var orientation: Int
    /// Whether a JPEG carries an EXIF thumbnail.
    public var hasEmbeddedThumbnail: Bool
    /// Seconds, for videos.
    public var duration: Double?
    /// Frames per second, for videos whose stream records a rate.
    public var framesPerSecond: Double?

    // What the file records about its making.

    /// The recorded capture time, when the file has a plausible one.
    public var creationDate: Date?
    /// The camera's offset from UTC at ``creationDate``, in seconds, when it recorded one.
    public var timeZoneOffset: Int?
    /// Where it was taken, when the file records it.
    public var location: GeoLocation?
    /// The camera that took it, when the file records it.
    public var camera: Camera?

    /// Metadata with every property given; a reader makes it, a test may too.
    public init(mediaType: MediaType, pixelSize: PixelSize, creationDate: Date? = nil, timeZoneOffset: Int? = nil,
                duration: Double? = nil, framesPerSecond: Double? = nil, orientation: Int = 1, location: GeoLocation? = nil,
                camera: Camera? = nil, format: String, hasEmbeddedThumbnail: Bool = false) {
        self.mediaType = mediaType
        self.format = format
        self.pixelSize = pixelSize
        self.orientation = orientation
        self.hasEmbeddedThumbnail = hasEmbeddedThumbnail
        self.duration = duration
        self.framesPerSecond = framesPerSecond
        self.creationDate = creationDate
        self.timeZoneOffset = timeZoneOffset
        self.location = location
        self.camera = camera
    }
}
