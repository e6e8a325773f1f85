import Foundation

/// Writes ``ExifMetadata`` and an embedded thumbnail as a JPEG EXIF APP1 segment.
///
/// The TIFF structure uses ``ExifMetadata/byteOrder`` and holds IFD0 (Make, Model, Orientation,
/// resolution), the Exif IFD (ExifVersion, DateTimeOriginal, SubSecTimeOriginal,
/// OffsetTimeOriginal, PixelX/YDimension), the GPS IFD when ``ExifMetadata/gps`` is set, and
/// IFD1 with the JPEG thumbnail when one is given. Fields that are `nil` are left out;
/// ``ExifMetadata/thumbnail`` is ignored.
public enum ExifWriter {
    /// The most bytes an APP1 payload can hold: 65535 minus the 2-byte length field.
    public static let maximumPayloadLength = 65533

    /// A complete APP1 segment: `FF E1`, the length, `Exif\0\0` and the TIFF block.
    public static func app1Segment(for metadata: ExifMetadata, thumbnail: Data?) throws(ExifWriterError) -> Data {
        if let thumbnail, !(thumbnail.first == 0xFF && thumbnail.dropFirst().first == 0xD8) {
            throw .thumbnailNotJPEG
        }
        let tiff = try tiffBlock(for: metadata, thumbnail: thumbnail.map { [UInt8]($0) } ?? [])
        let length = UInt16(2 + JPEGExifLocator.exifSignature.count + tiff.count)
        return Data([0xFF, 0xE1] + ExifByteOrder.bigEndian.bytes(of: length) + JPEGExifLocator.exifSignature + tiff)
    }

    /// `jpeg` with its EXIF APP1 segment (if any) removed and a new one for `metadata` and
    /// `thumbnail` placed right after SOI.
    public static func inserting(_ metadata: ExifMetadata, thumbnail: Data?, into jpeg: Data) throws(ExifWriterError) -> Data {
        let segment = try app1Segment(for: metadata, thumbnail: thumbnail)
        var result = try removingExif(from: jpeg)
        result.insert(contentsOf: segment, at: result.startIndex + 2)
        return result
    }

    /// `jpeg` without its first EXIF APP1 segment; unchanged if it has none.
    public static func removingExif(from jpeg: Data) throws(ExifWriterError) -> Data {
        guard jpeg.count >= 2, jpeg[jpeg.startIndex] == 0xFF, jpeg[jpeg.startIndex + 1] == 0xD8 else { throw .notJPEG }
        let segment: ExifSegment?
        do {
            segment = try JPEGExifLocator.locate(in: jpeg)
        } catch {
            throw .malformedJPEG(error)
        }
        var result = Data(jpeg)
        if let range = segment?.segmentRange {
            result.removeSubrange(range)
        }
        return result
    }

    /// The TIFF block: header, IFD0, Exif IFD, GPS IFD, IFD1, thumbnail, in that order.
    private static func tiffBlock(for metadata: ExifMetadata, thumbnail: [UInt8]) throws(ExifWriterError) -> [UInt8] {
        let byteOrder = metadata.byteOrder
        let exifIFD = TIFFDirectoryEncoder(try exifEntries(metadata))
        let gpsIFD = try metadata.gps.map { gps throws(ExifWriterError) in TIFFDirectoryEncoder(try gpsEntries(gps)) }
        let headerSize = 8
        // Offsets are placeholders until the layout is known; they do not change any size.
        let ifd0Size = TIFFDirectoryEncoder(try ifd0Entries(metadata, exifIFDOffset: 0, gpsIFDOffset: gpsIFD == nil ? nil : 0)).size
        let exifIFDOffset = headerSize + ifd0Size
        let gpsIFDOffset = exifIFDOffset + exifIFD.size
        let ifd1Offset = gpsIFDOffset + (gpsIFD?.size ?? 0)
        let ifd1Size = thumbnail.isEmpty ? 0 : TIFFDirectoryEncoder(ifd1Entries(thumbnailOffset: 0, length: 0)).size
        let thumbnailOffset = ifd1Offset + ifd1Size
        let payloadLength = JPEGExifLocator.exifSignature.count + thumbnailOffset + thumbnail.count
        guard payloadLength <= maximumPayloadLength else {
            throw .segmentTooLarge(payloadBytes: payloadLength, thumbnailBytes: thumbnail.count)
        }

        let ifd0 = TIFFDirectoryEncoder(try ifd0Entries(metadata, exifIFDOffset: exifIFDOffset,
                                                        gpsIFDOffset: gpsIFD == nil ? nil : gpsIFDOffset))
        var tiff = byteOrder.headerSignature + byteOrder.bytes(of: UInt32(headerSize))
        tiff += ifd0.encoded(at: headerSize, nextIFDOffset: thumbnail.isEmpty ? 0 : ifd1Offset, byteOrder: byteOrder)
        tiff += exifIFD.encoded(at: exifIFDOffset, nextIFDOffset: 0, byteOrder: byteOrder)
        if let gpsIFD {
            tiff += gpsIFD.encoded(at: gpsIFDOffset, nextIFDOffset: 0, byteOrder: byteOrder)
        }
        if !thumbnail.isEmpty {
            let ifd1 = TIFFDirectoryEncoder(ifd1Entries(thumbnailOffset: thumbnailOffset, length: thumbnail.count))
            tiff += ifd1.encoded(at: ifd1Offset, nextIFDOffset: 0, byteOrder: byteOrder) + thumbnail
        }
        return tiff
    }
}
