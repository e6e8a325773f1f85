import AssetsKit

/// The entries of each IFD ``ExifWriter`` writes. Offsets passed in must fit in 32 bits.
extension ExifWriter {
    typealias Entries = [(tag: UInt16, value: TIFFValue)]

    /// 72 pixels per inch, the resolution EXIF requires IFD0 and IFD1 to state.
    private static let resolutionEntries: Entries = [
        (ExifTag.xResolution, .rational([.init(numerator: 72, denominator: 1)])),
        (ExifTag.yResolution, .rational([.init(numerator: 72, denominator: 1)])),
        (ExifTag.resolutionUnit, .short([2])),
    ]

    static func ifd0Entries(_ metadata: ExifMetadata, exifIFDOffset: Int, gpsIFDOffset: Int?) throws(ExifWriterError) -> Entries {
        var entries = resolutionEntries
        entries.append((ExifTag.exifIFDPointer, .long([UInt32(exifIFDOffset)])))
        if let gpsIFDOffset {
            entries.append((ExifTag.gpsIFDPointer, .long([UInt32(gpsIFDOffset)])))
        }
        if let make = metadata.make {
            entries.append((ExifTag.make, .ascii(make)))
        }
        if let model = metadata.model {
            entries.append((ExifTag.model, .ascii(model)))
        }
        if let orientation = metadata.orientation {
            guard (1...8).contains(orientation) else { throw .valueOutOfRange(field: "Orientation") }
            entries.append((ExifTag.orientation, .short([UInt16(orientation)])))
        }
        return entries
    }

    static func exifEntries(_ metadata: ExifMetadata) throws(ExifWriterError) -> Entries {
        var entries: Entries = [(ExifTag.exifVersion, .undefined(Array("0232".utf8)))]
        if let dateTime = metadata.dateTimeOriginal {
            entries.append((ExifTag.dateTimeOriginal, .ascii(dateTime.exifString)))
            if let subsecond = dateTime.subsecond {
                entries.append((ExifTag.subSecTimeOriginal, .ascii(subsecondDigits(subsecond))))
            }
        }
        if let offset = metadata.offsetTimeOriginal {
            guard let text = ExifOffsetTime.text(forSeconds: offset) else { throw .valueOutOfRange(field: "OffsetTimeOriginal") }
            entries.append((ExifTag.offsetTimeOriginal, .ascii(text)))
        }
        for (tag, dimension, field) in [(ExifTag.pixelXDimension, metadata.pixelXDimension, "PixelXDimension"),
                                        (ExifTag.pixelYDimension, metadata.pixelYDimension, "PixelYDimension")] {
            guard let dimension else { continue }
            guard dimension > 0, let value = UInt32(exactly: dimension) else { throw .valueOutOfRange(field: field) }
            entries.append((tag, .long([value])))
        }
        return entries
    }

    static func gpsEntries(_ gps: GeoLocation) throws(ExifWriterError) -> Entries {
        guard gps.isValid else { throw .valueOutOfRange(field: "GPS") }
        var entries: Entries = [
            (ExifTag.gpsVersionID, .byte([2, 3, 0, 0])),
            (ExifTag.gpsLatitudeRef, .ascii(gps.latitude < 0 ? "S" : "N")),
            (ExifTag.gpsLatitude, .rational(degreesMinutesSeconds(gps.latitude))),
            (ExifTag.gpsLongitudeRef, .ascii(gps.longitude < 0 ? "W" : "E")),
            (ExifTag.gpsLongitude, .rational(degreesMinutesSeconds(gps.longitude))),
        ]
        if let altitude = gps.altitude {
            guard let millimetres = UInt32(exactly: (abs(altitude) * 1000).rounded()) else {
                throw .valueOutOfRange(field: "GPSAltitude")
            }
            entries.append((ExifTag.gpsAltitudeRef, .byte([altitude < 0 ? 1 : 0])))
            entries.append((ExifTag.gpsAltitude, .rational([.init(numerator: millimetres, denominator: 1000)])))
        }
        return entries
    }

    static func ifd1Entries(thumbnailOffset: Int, length: Int) -> Entries {
        resolutionEntries + [
            (ExifTag.compression, .short([6])),
            (ExifTag.jpegInterchangeFormat, .long([UInt32(thumbnailOffset)])),
            (ExifTag.jpegInterchangeFormatLength, .long([UInt32(length)])),
        ]
    }

    /// Whole degrees, whole minutes and seconds to the microsecond of `degrees`' magnitude.
    private static func degreesMinutesSeconds(_ degrees: Double) -> [TIFFValue.Rational] {
        let microsecondsPerDegree: UInt64 = 3_600_000_000
        let total = UInt64((abs(degrees) * Double(microsecondsPerDegree)).rounded())
        let remainder = total % microsecondsPerDegree
        return [.init(numerator: UInt32(total / microsecondsPerDegree), denominator: 1),
                .init(numerator: UInt32(remainder / 60_000_000), denominator: 1),
                .init(numerator: UInt32(remainder % 60_000_000), denominator: 1_000_000)]
    }

    /// SubSecTime digits for a fraction of a second, to the nanosecond, without trailing zeros.
    private static func subsecondDigits(_ fraction: Double) -> String {
        let nanoseconds = min(999_999_999, Int((fraction * 1e9).rounded()))
        let digits = String(nanoseconds)
        let padded = String(repeating: "0", count: 9 - digits.count) + digits
        let trimmed = padded.reversed().drop { $0 == "0" }.reversed()
        return trimmed.isEmpty ? "0" : String(trimmed)
    }
}
