import Foundation

/// Finds the EXIF block of a PNG: the standard `eXIf` chunk, or the hex-encoded
/// "Raw profile type exif" text chunk that ImageMagick writes (which common decoders ignore,
/// so a photo's orientation would be lost).
public enum PNGExifLocator {
    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    private static let rawProfileKeyword = Array("Raw profile type exif".utf8)
    /// Text chunks longer than this are not EXIF profiles worth reading.
    private static let maximumProfileLength = 1 << 20

    /// The EXIF block of the PNG at `url` (TIFF structure, possibly after "Exif\0\0"), or `nil`.
    /// Reads only chunk headers and the chunks that can hold EXIF; pixel data is skipped.
    public static func exifBlock(inPNGAt url: URL) throws -> Data? {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        guard try handle.read(upToCount: 8).map(Array.init) == signature else { return nil }
        var offset: UInt64 = 8
        while let header = try handle.read(upToCount: 8), header.count == 8 {
            let bytes = Array(header)
            let length = Int(UInt32(bytes[0]) << 24 | UInt32(bytes[1]) << 16 | UInt32(bytes[2]) << 8 | UInt32(bytes[3]))
            let type = String(decoding: bytes[4..<8], as: UTF8.self)
            if type == "IEND" { return nil }
            if (type == "eXIf" || type == "tEXt") && length <= maximumProfileLength {
                guard let body = try handle.read(upToCount: length), body.count == length else { return nil }
                if type == "eXIf" { return body }
                if let block = rawProfile(in: Array(body)) { return block }
            }
            offset += 12 + UInt64(length)
            try handle.seek(toOffset: offset)
        }
        return nil
    }

    /// Decodes ImageMagick's raw profile text: keyword, NUL, "\nexif\n", a length, then hex digits.
    static func rawProfile(in body: [UInt8]) -> Data? {
        guard body.count > rawProfileKeyword.count, Array(body.prefix(rawProfileKeyword.count)) == rawProfileKeyword,
              body[rawProfileKeyword.count] == 0 else { return nil }
        let text = body[(rawProfileKeyword.count + 1)...]
        let fields = text.split(whereSeparator: { $0 == 0x0A || $0 == 0x20 })
        guard fields.count >= 3, let declared = Int(String(decoding: fields[1], as: UTF8.self)), declared > 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(declared)
        var high: UInt8?
        for character in fields[2...].joined() {
            guard let nibble = hexValue(character) else { return nil }
            if let pending = high {
                bytes.append(pending << 4 | nibble)
                high = nil
                if bytes.count == declared { break }
            } else {
                high = nibble
            }
        }
        return bytes.count == declared ? Data(bytes) : nil
    }

    private static func hexValue(_ character: UInt8) -> UInt8? {
        switch character {
        case 0x30...0x39: character - 0x30
        case 0x61...0x66: character - 0x61 + 10
        case 0x41...0x46: character - 0x41 + 10
        default: nil
        }
    }
}
