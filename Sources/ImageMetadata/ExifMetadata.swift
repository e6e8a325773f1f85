import AssetsKit

/// The EXIF fields a photo library needs, as ``ExifReader`` reads them and ``ExifWriter`` writes them.
///
/// Every field is optional: files from the wild miss or damage any of them.
public struct ExifMetadata: Sendable, Hashable {
    /// Byte order of the TIFF structure.
    public var byteOrder: ExifByteOrder
    /// EXIF orientation, 1...8 (1 = upright, 6 = turn 90° clockwise to view); `nil` if absent or out of range.
    public var orientation: Int?
    /// Camera maker, trimmed of NULs and spaces.
    public var make: String?
    /// Camera model, trimmed of NULs and spaces.
    public var model: String?
    /// When the photo was taken (DateTimeOriginal, with SubSecTimeOriginal), as wall time.
    public var dateTimeOriginal: ExifDateTime?
    /// Seconds east of UTC of ``dateTimeOriginal``, from OffsetTimeOriginal or else OffsetTime.
    public var offsetTimeOriginal: Int?
    /// Where the photo was taken.
    public var gps: GeoLocation?
    /// Width of the main image in pixels, as the Exif IFD states it; `nil` when absent or 0.
    public var pixelXDimension: Int?
    /// Height of the main image in pixels, as the Exif IFD states it; `nil` when absent or 0.
    public var pixelYDimension: Int?
    /// How long the shutter was open, in seconds (ExposureTime); `nil` when absent, 0 or not a number.
    public var exposureTime: Double?
    /// The aperture's f-number (FNumber), e.g. 1.8; `nil` when absent, 0 or not a number.
    public var fNumber: Double?
    /// The lens's focal length in millimetres (FocalLength); `nil` when absent, 0 or not a number.
    public var focalLength: Double?
    /// The ISO speed (PhotographicSensitivity, formerly ISOSpeedRatings; its first value); `nil` when absent or 0.
    public var isoSpeed: Int?
    /// Byte range of the embedded JPEG thumbnail (IFD1 JPEGInterchangeFormat and Length),
    /// counted from the first byte of the block handed to ``ExifReader/parse(_:)``; known to
    /// lie inside that block. For a bare TIFF block that is the TIFF header. Ignored by ``ExifWriter``,
    /// as are the exposure fields above.
    public var thumbnail: Range<Int>?

    /// Metadata with the given fields; everything not given is absent.
    public init(
        byteOrder: ExifByteOrder = .bigEndian, orientation: Int? = nil, make: String? = nil, model: String? = nil,
        dateTimeOriginal: ExifDateTime? = nil, offsetTimeOriginal: Int? = nil, gps: GeoLocation? = nil,
        pixelXDimension: Int? = nil, pixelYDimension: Int? = nil, thumbnail: Range<Int>? = nil
    ) {
        self.byteOrder = byteOrder
        self.orientation = orientation
        self.make = make
        self.model = model
        self.dateTimeOriginal = dateTimeOriginal
        self.offsetTimeOriginal = offsetTimeOriginal
        self.gps = gps
        self.pixelXDimension = pixelXDimension
        self.pixelYDimension = pixelYDimension
        self.thumbnail = thumbnail
    }
}
