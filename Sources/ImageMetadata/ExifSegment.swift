import Foundation

/// An EXIF APP1 segment found in a JPEG by ``JPEGExifLocator``.
public struct ExifSegment: Sendable, Hashable {
    /// The TIFF block: the segment's payload after `Exif\0\0`, indexed from 0.
    public let tiff: Data
    /// Byte offset of the TIFF block in the JPEG data (0 = the SOI marker).
    public let tiffOffset: Int
    /// The whole segment in the JPEG data, from its marker (with any fill bytes before it) to its last byte.
    public let segmentRange: Range<Int>
}
