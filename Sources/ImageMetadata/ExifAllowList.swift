/// The EXIF fields a photo keeps when it is handed over without where it was taken, and the
/// new EXIF segment that holds them and nothing else.
///
/// The segment is written afresh (IFD0 and the Exif IFD, laid out by ``TIFFDirectoryEncoder``),
/// never copied: only fields named here are read from the photo's EXIF, each checked for the
/// type and count the standard gives it. No GPS directory, no IFD1 or thumbnail, no maker
/// note, no interoperability directory, no free text (UserComment, ImageDescription, Artist,
/// Copyright) can come along, however the source is built.
enum ExifAllowList {
    /// What kind of value a field holds, and so which TIFF types and counts are accepted.
    enum Kind {
        /// ASCII text, cut at its first NUL and at ``maximumTextBytes``.
        case text
        /// 1 to 4 BYTE, SHORT or LONG values.
        case integers
        /// 1 to 4 RATIONAL values.
        case rationals
        /// One SRATIONAL value.
        case signedRational
    }

    /// Longer text than any camera writes in these fields (a lens model is the longest).
    static let maximumTextBytes = 255

    /// IFD0: orientation, camera, the file's date and the resolution EXIF requires.
    static let ifd0: [UInt16: Kind] = [
        ExifTag.orientation: .integers,
        ExifTag.make: .text, ExifTag.model: .text,
        ExifTag.dateTime: .text,
        ExifTag.xResolution: .rationals, ExifTag.yResolution: .rationals, ExifTag.resolutionUnit: .integers,
    ]

    /// The Exif IFD: dates and their offsets and fractions, lens, exposure, pixel size and
    /// colour space. ExifVersion is written apart (``exifVersion(in:reader:)``).
    static let exifIFD: [UInt16: Kind] = [
        ExifTag.dateTimeOriginal: .text, ExifTag.dateTimeDigitized: .text,
        ExifTag.offsetTime: .text, ExifTag.offsetTimeOriginal: .text, ExifTag.offsetTimeDigitized: .text,
        ExifTag.subSecTime: .text, ExifTag.subSecTimeOriginal: .text, ExifTag.subSecTimeDigitized: .text,
        ExifTag.lensMake: .text, ExifTag.lensModel: .text,
        ExifTag.exposureTime: .rationals, ExifTag.fNumber: .rationals, ExifTag.photographicSensitivity: .integers,
        ExifTag.focalLength: .rationals, ExifTag.focalLengthIn35mmFilm: .integers,
        ExifTag.exposureBiasValue: .signedRational, ExifTag.flash: .integers, ExifTag.whiteBalance: .integers,
        ExifTag.meteringMode: .integers, ExifTag.exposureProgram: .integers,
        ExifTag.pixelXDimension: .integers, ExifTag.pixelYDimension: .integers,
        ExifTag.colorSpace: .integers,
    ]

    /// A complete APP1 segment (`FF E1`, length, `Exif\0\0`, TIFF block) holding only the
    /// allowed fields of the TIFF block `tiff`, in its byte order.
    /// - Returns: `nil` when `tiff` has no readable TIFF header or IFD0 (the photo is then
    ///   handed over without EXIF).
    static func app1Segment(keepingAllowedFieldsOf tiff: ArraySlice<UInt8>) -> [UInt8]? {
        guard let reader = try? TIFFByteReader(locatingHeaderIn: Array(tiff)),
              let source0 = reader.firstIFDOffset.flatMap({ ImageFileDirectory(reader: reader, offset: $0) })
        else { return nil }
        let exifPointer = source0[ExifTag.exifIFDPointer].flatMap(reader.integer)
        // A pointer back to IFD0 would read IFD0's fields as Exif fields: no Exif IFD then.
        let sourceExif = exifPointer.flatMap { $0 == reader.firstIFDOffset ? nil : ImageFileDirectory(reader: reader, offset: $0) }
        let exifEncoder = TIFFDirectoryEncoder([(ExifTag.exifVersion, exifVersion(in: sourceExif, reader: reader))]
                                               + allowed(exifIFD, in: sourceExif, reader: reader))

        let headerSize = 8
        // The Exif IFD's offset does not change IFD0's size: lay IFD0 out once to learn it.
        let ifd0Entries = allowed(ifd0, in: source0, reader: reader)
        let exifOffset = headerSize + TIFFDirectoryEncoder(ifd0Entries + [(ExifTag.exifIFDPointer, .long([0]))]).size
        let ifd0Encoder = TIFFDirectoryEncoder(ifd0Entries + [(ExifTag.exifIFDPointer, .long([UInt32(exifOffset)]))])
        let order = reader.byteOrder
        let block = order.headerSignature + order.bytes(of: UInt32(headerSize))
            + ifd0Encoder.encoded(at: headerSize, nextIFDOffset: 0, byteOrder: order)
            + exifEncoder.encoded(at: exifOffset, nextIFDOffset: 0, byteOrder: order)
        let payload = JPEGExifLocator.exifSignature + block
        // Bounded by the allow-list (some 30 fields of at most 255 bytes), far below a segment's limit.
        guard payload.count <= ExifWriter.maximumPayloadLength else { return nil }
        return [0xFF, 0xE1] + ExifByteOrder.bigEndian.bytes(of: UInt16(2 + payload.count)) + payload
    }

    /// The source's ExifVersion when it is four ASCII digits, else 0232 (EXIF 2.32).
    private static func exifVersion(in directory: ImageFileDirectory?, reader: TIFFByteReader) -> TIFFValue {
        if let entry = directory?[ExifTag.exifVersion], entry.type == .undefined, entry.count == 4,
           let range = reader.range(offset: entry.valueOffset, length: 4),
           reader.bytes[range].allSatisfy({ (0x30...0x39).contains($0) }) {
            return .undefined(Array(reader.bytes[range]))
        }
        return .undefined(Array("0232".utf8))
    }

    /// The fields of `directory` named in `fields` whose type and count fit their kind.
    private static func allowed(_ fields: [UInt16: Kind], in directory: ImageFileDirectory?,
                                reader: TIFFByteReader) -> [(tag: UInt16, value: TIFFValue)] {
        guard let directory else { return [] }
        return fields.compactMap { tag, kind in
            directory[tag].flatMap { value(of: $0, as: kind, reader: reader) }.map { (tag, $0) }
        }
    }

    /// The value of `entry` re-read field by field, or `nil` when its type or count does not fit `kind`.
    private static func value(of entry: ImageFileDirectory.Entry, as kind: Kind, reader: TIFFByteReader) -> TIFFValue? {
        let offsets = (0..<entry.count).lazy.map { entry.valueOffset + $0 * entry.type.size }
        switch kind {
        case .text:
            guard entry.type == .ascii,
                  let range = reader.range(offset: entry.valueOffset, length: min(entry.byteCount, maximumTextBytes))
            else { return nil }
            let text = reader.bytes[range].prefix { $0 != 0 }
            return text.isEmpty ? nil : .ascii(String(decoding: text, as: UTF8.self))
        case .integers:
            guard (1...4).contains(entry.count) else { return nil }
            switch entry.type {
            case .byte: return .byte(offsets.compactMap(reader.uint8))
            case .short: return .short(offsets.compactMap(reader.uint16))
            case .long: return .long(offsets.compactMap(reader.uint32))
            default: return nil
            }
        case .rationals:
            guard entry.type == .rational, (1...4).contains(entry.count) else { return nil }
            return .rational(offsets.compactMap { offset in
                guard let numerator = reader.uint32(at: offset), let denominator = reader.uint32(at: offset + 4) else { return nil }
                return TIFFValue.Rational(numerator: numerator, denominator: denominator)
            })
        case .signedRational:
            guard entry.type == .signedRational, entry.count == 1,
                  let numerator = reader.uint32(at: entry.valueOffset), let denominator = reader.uint32(at: entry.valueOffset + 4)
            else { return nil }
            return .signedRational([.init(numerator: Int32(bitPattern: numerator), denominator: Int32(bitPattern: denominator))])
        }
    }
}
