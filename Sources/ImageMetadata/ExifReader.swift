import AssetsKit
import Foundation

/// Reads ``ExifMetadata`` from an EXIF block, safely on hostile input.
///
/// The block is a TIFF structure, possibly preceded by `Exif\0\0` (as in a JPEG APP1 segment)
/// or by a 4-byte offset and `Exif\0\0` (as libheif delivers it). The reader follows IFD0, the
/// Exif IFD, the GPS IFD and IFD1 (the thumbnail), each at most once. Every read is bounds
/// checked, entry counts are capped and tags with impossible sizes are skipped, so a damaged
/// part only leaves its fields `nil`.
public enum ExifReader {
    /// Parses `block`; throws only when it holds no usable TIFF header.
    public static func parse(_ block: Data) throws(ExifError) -> ExifMetadata {
        let reader = try TIFFByteReader(locatingHeaderIn: [UInt8](block))
        var metadata = ExifMetadata(byteOrder: reader.byteOrder)
        var visitedOffsets = Set<Int>()

        func directory(at offset: Int?) -> ImageFileDirectory? {
            guard let offset, visitedOffsets.insert(offset).inserted else { return nil }
            return ImageFileDirectory(reader: reader, offset: offset)
        }

        guard let ifd0 = directory(at: reader.firstIFDOffset) else { return metadata }
        metadata.make = ifd0[ExifTag.make].flatMap(reader.string)
        metadata.model = ifd0[ExifTag.model].flatMap(reader.string)
        metadata.orientation = ifd0[ExifTag.orientation].flatMap(reader.integer).flatMap { (1...8).contains($0) ? $0 : nil }

        if let exifIFD = directory(at: ifd0[ExifTag.exifIFDPointer].flatMap(reader.integer)) {
            readExifIFD(exifIFD, reader: reader, into: &metadata)
        }
        if let gpsIFD = directory(at: ifd0[ExifTag.gpsIFDPointer].flatMap(reader.integer)) {
            metadata.gps = gps(in: gpsIFD, reader: reader)
        }
        if let ifd1 = directory(at: ifd0.nextIFDOffset),
           let offset = ifd1[ExifTag.jpegInterchangeFormat].flatMap(reader.integer),
           let length = ifd1[ExifTag.jpegInterchangeFormatLength].flatMap(reader.integer), length > 0 {
            metadata.thumbnail = reader.range(offset: offset, length: length)
        }
        return metadata
    }

    private static func readExifIFD(_ ifd: ImageFileDirectory, reader: TIFFByteReader, into metadata: inout ExifMetadata) {
        if let text = ifd[ExifTag.dateTimeOriginal].flatMap(reader.string) {
            let subsecondDigits = ifd[ExifTag.subSecTimeOriginal].flatMap(reader.string)
            metadata.dateTimeOriginal = ExifDateTime(exifString: text, subsecondDigits: subsecondDigits)
        }
        metadata.offsetTimeOriginal = [ExifTag.offsetTimeOriginal, ExifTag.offsetTime].lazy
            .compactMap { ifd[$0].flatMap(reader.string).flatMap(ExifOffsetTime.seconds(parsing:)) }
            .first
        metadata.pixelXDimension = ifd[ExifTag.pixelXDimension].flatMap(reader.integer).flatMap { $0 > 0 ? $0 : nil }
        metadata.pixelYDimension = ifd[ExifTag.pixelYDimension].flatMap(reader.integer).flatMap { $0 > 0 ? $0 : nil }
        func positive(_ tag: UInt16) -> Double? {
            ifd[tag].flatMap { reader.rationals($0, limit: 1)?.first }.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        }
        metadata.exposureTime = positive(ExifTag.exposureTime)
        metadata.fNumber = positive(ExifTag.fNumber)
        metadata.focalLength = positive(ExifTag.focalLength)
        metadata.isoSpeed = ifd[ExifTag.photographicSensitivity].flatMap(reader.integer).flatMap { $0 > 0 ? $0 : nil }
    }

    private static func gps(in ifd: ImageFileDirectory, reader: TIFFByteReader) -> GeoLocation? {
        guard let latitude = ifd[ExifTag.gpsLatitude].flatMap({ degrees(reader.numbers($0, limit: 3)) }),
              let longitude = ifd[ExifTag.gpsLongitude].flatMap({ degrees(reader.numbers($0, limit: 3)) })
        else { return nil }
        let south = ifd[ExifTag.gpsLatitudeRef].flatMap(reader.string)?.uppercased() == "S"
        let west = ifd[ExifTag.gpsLongitudeRef].flatMap(reader.string)?.uppercased() == "W"
        var altitude = ifd[ExifTag.gpsAltitude].flatMap { reader.rationals($0, limit: 1)?.first }
        if let height = altitude, ifd[ExifTag.gpsAltitudeRef].flatMap(reader.integer) == 1 {
            altitude = -height
        }
        let position = GeoLocation(latitude: south ? -latitude : latitude, longitude: west ? -longitude : longitude,
                                   altitude: altitude)
        return position.isValid ? position : nil
    }

    /// Decimal degrees from degrees, minutes and seconds (minutes and seconds optional).
    private static func degrees(_ parts: [Double]?) -> Double? {
        guard let parts, let whole = parts.first else { return nil }
        let minutes = parts.count > 1 ? parts[1] : 0
        let seconds = parts.count > 2 ? parts[2] : 0
        return whole + minutes / 60 + seconds / 3600
    }
}
