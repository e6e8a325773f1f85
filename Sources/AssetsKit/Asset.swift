import Foundation

/// A photo or video in a library, as a value.
///
/// An asset stays valid after the library that made it is gone; hand it back to any library
/// over the same files to get its images. All sizes are upright.
public struct Asset: Sendable, Hashable, Identifiable {
    /// The asset's identifier: a ``LocalIdentifier`` or a ``LegacyAssetURL``, by library.
    public let id: AssetIdentifier
    /// The original file's name, e.g. `IMG_0001.JPG`.
    public var filename: String
    /// Whether the asset is a photo or a video.
    public var mediaType: MediaType
    /// Upright size: EXIF orientation or video rotation applied.
    public var pixelSize: PixelSize
    /// When the photo was taken (EXIF DateTimeOriginal, a video's creation time), else the
    /// file's modification date. See ``creationDateSource``.
    public var creationDate: Date
    /// The offset from UTC the camera recorded, in seconds, when it recorded one.
    public var timeZoneOffset: Int?
    /// Where ``creationDate`` came from.
    public var creationDateSource: CreationDateSource
    /// The original file's modification date.
    public var modificationDate: Date
    /// The original file's size in bytes.
    public var byteSize: Int64
    /// Length in seconds, for videos.
    public var duration: Double?
    /// Frames per second, for videos whose stream records a rate.
    public var framesPerSecond: Double?
    /// EXIF orientation of the original (1...8; 1 is upright).
    public var orientation: Int
    /// Where the photo or video was taken, when the file records it.
    public var location: GeoLocation?
    /// The camera that took it, when the file records it.
    public var camera: Camera?
    /// The file format, as a short lower-case name (`jpeg`, `heif`, `png`, `mp4`, ...).
    public var format: String
    /// Whether the original carries an embedded EXIF thumbnail (a fast degraded answer).
    public var hasEmbeddedThumbnail: Bool
    /// Whether the person marked it a favourite.
    public var isFavorite: Bool
    /// Whether the person hid it.
    public var isHidden: Bool

    /// An asset with every property given; a library makes assets, a test or a decoder may too.
    public init(
        id: AssetIdentifier, filename: String, mediaType: MediaType, pixelSize: PixelSize,
        creationDate: Date, timeZoneOffset: Int? = nil, creationDateSource: CreationDateSource,
        modificationDate: Date, byteSize: Int64, duration: Double? = nil, framesPerSecond: Double? = nil, orientation: Int = 1,
        location: GeoLocation? = nil, camera: Camera? = nil, format: String,
        hasEmbeddedThumbnail: Bool = false, isFavorite: Bool = false, isHidden: Bool = false
    ) {
        self.id = id
        self.filename = filename
        self.mediaType = mediaType
        self.pixelSize = pixelSize
        self.creationDate = creationDate
        self.timeZoneOffset = timeZoneOffset
        self.creationDateSource = creationDateSource
        self.modificationDate = modificationDate
        self.byteSize = byteSize
        self.duration = duration
        self.framesPerSecond = framesPerSecond
        self.orientation = orientation
        self.location = location
        self.camera = camera
        self.format = format
        self.hasEmbeddedThumbnail = hasEmbeddedThumbnail
        self.isFavorite = isFavorite
        self.isHidden = isHidden
    }
}

/// Where an asset's creation date was read from.
public enum CreationDateSource: String, Sendable, Hashable, Codable {
    /// EXIF DateTimeOriginal (with OffsetTimeOriginal when present).
    case exif
    /// A video container's creation time.
    case container
    /// The file's modification date, because the file records no usable date.
    case fileModificationDate
}
