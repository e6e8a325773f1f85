/// Why ``ExifWriter`` could not produce or place an EXIF segment.
public enum ExifWriterError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The APP1 payload (`Exif\0\0` plus the TIFF block) would be `payloadBytes` long, over
    /// the 65533 bytes a JPEG segment can hold; `thumbnailBytes` of it are the thumbnail.
    case segmentTooLarge(payloadBytes: Int, thumbnailBytes: Int)
    /// The thumbnail does not start with a JPEG SOI marker (`FF D8`).
    case thumbnailNotJPEG
    /// A metadata field cannot be written; `field` names it.
    case valueOutOfRange(field: String)
    /// The data to insert into does not start with a JPEG SOI marker.
    case notJPEG
    /// The JPEG's header segments are damaged, so the old EXIF segment cannot be found safely.
    case malformedJPEG(JPEGStructureError)

    /// A one-line explanation of what is wrong, with the offsets and sizes involved.
    public var description: String {
        switch self {
        case let .segmentTooLarge(payloadBytes, thumbnailBytes):
            "EXIF APP1 payload would be \(payloadBytes) bytes, over the \(ExifWriter.maximumPayloadLength)-byte limit "
                + "of a JPEG segment; the \(thumbnailBytes)-byte thumbnail must shrink"
        case .thumbnailNotJPEG:
            "EXIF thumbnail is not a JPEG: it does not start with FF D8"
        case let .valueOutOfRange(field):
            "EXIF field \(field) is out of the range EXIF can store"
        case .notJPEG:
            "cannot insert EXIF: data does not start with a JPEG SOI marker (FF D8)"
        case let .malformedJPEG(error):
            "cannot insert EXIF into a damaged JPEG: \(error)"
        }
    }
}
