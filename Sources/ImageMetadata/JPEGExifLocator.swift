import Foundation

/// Finds the EXIF APP1 segment in the leading bytes of a JPEG by walking its markers.
public enum JPEGExifLocator {
    /// The six bytes that open the payload of an EXIF APP1 segment.
    static let exifSignature: [UInt8] = Array("Exif".utf8) + [0, 0]

    /// The first APP1 segment whose payload starts with `Exif\0\0`.
    ///
    /// Walks the segments from SOI, skipping fill bytes (`FF FF …`) and the standalone markers
    /// TEM and RST0–7, and stops at SOS or EOI. Returns `nil` for data that does not start with
    /// SOI, and when the header segments end (or the data runs out between segments) without an
    /// EXIF APP1. Throws when a segment runs past the data or the marker structure is broken.
    public static func locate(in jpeg: Data) throws(JPEGStructureError) -> ExifSegment? {
        let start = jpeg.startIndex
        func byte(_ offset: Int) -> UInt8 { jpeg[start + offset] }

        guard jpeg.count >= 2, byte(0) == 0xFF, byte(1) == 0xD8 else { return nil }
        var offset = 2
        while offset < jpeg.count {
            guard byte(offset) == 0xFF else { throw .missingMarker(offset: offset, byte: byte(offset)) }
            let markerStart = offset
            while offset < jpeg.count, byte(offset) == 0xFF { offset += 1 }
            guard offset < jpeg.count else { return nil }
            let marker = byte(offset)
            offset += 1
            switch marker {
            case 0xDA, 0xD9:
                return nil
            case 0x01, 0xD0...0xD7:
                continue
            case 0x00:
                throw .missingMarker(offset: markerStart, byte: marker)
            default:
                break
            }
            guard offset + 2 <= jpeg.count else { return nil }
            let length = Int(byte(offset)) << 8 | Int(byte(offset + 1))
            guard length >= 2 else { throw .invalidSegmentLength(marker: marker, offset: markerStart, length: length) }
            let end = offset + length
            guard end <= jpeg.count else {
                throw .truncatedSegment(marker: marker, offset: markerStart, end: end, available: jpeg.count)
            }
            let payload = offset + 2
            if marker == 0xE1, end - payload >= exifSignature.count,
               jpeg[(start + payload)..<(start + payload + exifSignature.count)].elementsEqual(exifSignature) {
                let tiffOffset = payload + exifSignature.count
                return ExifSegment(tiff: Data(jpeg[(start + tiffOffset)..<(start + end)]), tiffOffset: tiffOffset,
                                   segmentRange: markerStart..<end)
            }
            offset = end
        }
        return nil
    }
}
