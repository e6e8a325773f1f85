import Foundation

/// What the segments of a JPEG before its first scan say: the stored frame size and the EXIF
/// block, read without a decoder (about a hundred times faster than opening the file with one).
///
/// The reader vouches only for headers that libjpeg reads without an error or a warning: one
/// 8-bit baseline, extended or progressive frame (Huffman or arithmetic) with 1, 3 or 4
/// components; well-formed quantisation and Huffman tables; a scan whose components are the
/// frame's; nothing between segments but fill bytes; at most one EXIF segment. For anything
/// else ``read(contentsOf:)`` returns `nil`, and a full decoder must judge the file, so the
/// answer for a damaged or unusual file is the decoder's own.
public struct JPEGHeader: Sendable, Hashable {
    /// The frame's width in pixels, as stored (before any EXIF orientation).
    public var width: Int
    /// The frame's height in pixels, as stored.
    public var height: Int
    /// The payload of the EXIF APP1 segment (`Exif\0\0` and the TIFF block), when there is one.
    public var exif: Data?

    /// The segments this reader understands before the first scan: SOF0, SOF1, SOF2, SOF9,
    /// SOF10, DHT, DQT, DRI, SOS, APP0...APP15 and COM.
    private static let headerMarkers = Set<UInt8>([0xC0, 0xC1, 0xC2, 0xC9, 0xCA, 0xC4, 0xDB, 0xDD, 0xDA, 0xFE]).union(0xE0...0xEF)

    /// Headers longer than this are left to a decoder.
    static let maximumHeaderBytes = 8 << 20

    /// Reads the header of the JPEG file at `url`, reading only the bytes before its first scan.
    /// - Returns: `nil` when the file is not a JPEG whose header this reader vouches for.
    /// - Throws: ``JPEGHeaderError`` when the file cannot be opened or read.
    public static func read(contentsOf url: URL) throws(JPEGHeaderError) -> JPEGHeader? {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw JPEGHeaderError(path: url.path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var bytes = [UInt8]()
        var wanted = 64 << 10
        while true {
            let start = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: wanted - start))
            let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + start, wanted - start, off_t(start)) }
            guard count >= 0 else { throw JPEGHeaderError(path: url.path, reason: String(cString: strerror(errno))) }
            bytes.removeLast(wanted - start - count)
            switch parse(bytes) {
            case .header(let header): return header
            case .unsure: return nil
            case .needsMoreBytes:
                // A short read is the end of the file.
                guard start + count == wanted, wanted < maximumHeaderBytes else { return nil }
                wanted *= 4
            }
        }
    }

    /// The outcome of parsing the leading bytes of a file.
    enum Parse: Hashable {
        case header(JPEGHeader)
        /// Not a JPEG header this reader vouches for.
        case unsure
        /// The header goes on past the bytes given.
        case needsMoreBytes
    }

    /// Parses the segments of `bytes` (the start of a file) up to the first SOS.
    static func parse(_ bytes: [UInt8]) -> Parse {
        guard bytes.count >= 2 else { return .needsMoreBytes }
        guard bytes[0] == 0xFF, bytes[1] == 0xD8 else { return .unsure }
        var frame: (width: Int, height: Int, components: [UInt8])?
        var exif: Data?
        var offset = 2
        while true {
            // A marker: 0xFF, any fill bytes, the code. Anything else is data libjpeg warns about.
            guard offset < bytes.count else { return .needsMoreBytes }
            guard bytes[offset] == 0xFF else { return .unsure }
            while offset < bytes.count, bytes[offset] == 0xFF { offset += 1 }
            guard offset < bytes.count else { return .needsMoreBytes }
            let marker = bytes[offset]
            guard Self.headerMarkers.contains(marker) else { return .unsure }
            guard offset + 2 < bytes.count else { return .needsMoreBytes }
            let length = Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2])
            let payload = offset + 3
            let end = offset + 1 + length
            guard length >= 2 else { return .unsure }
            guard end <= bytes.count else { return .needsMoreBytes }
            let body = bytes[payload..<end]
            switch marker {
            case 0xC0, 0xC1, 0xC2, 0xC9, 0xCA:
                guard frame == nil, let parsed = Self.frame(body) else { return .unsure }
                frame = parsed
            case 0xDA:
                guard let frame, Self.scanIsValid(body, frameComponents: frame.components) else { return .unsure }
                return .header(JPEGHeader(width: frame.width, height: frame.height, exif: exif))
            case 0xDB:
                guard Self.quantisationTablesAreValid(body) else { return .unsure }
            case 0xC4:
                guard Self.huffmanTablesAreValid(body) else { return .unsure }
            case 0xDD:
                guard length == 4 else { return .unsure }
            case 0xE0:
                // JFIF of another major version than 1 draws a warning.
                if body.starts(with: Array("JFIF\0".utf8)), body.count >= 6, body[body.startIndex + 5] != 1 { return .unsure }
            case 0xE1:
                if body.starts(with: Array("Exif".utf8)) {
                    guard exif == nil else { return .unsure }
                    exif = Data(body)
                }
            default:
                break // APP2...APP15 and COM
            }
            offset = end
        }
    }

    /// A frame header's size and component ids, if libjpeg accepts it.
    private static func frame(_ body: ArraySlice<UInt8>) -> (width: Int, height: Int, components: [UInt8])? {
        let bytes = Array(body)
        guard bytes.count >= 6, bytes[0] == 8 else { return nil }
        let height = Int(bytes[1]) << 8 | Int(bytes[2])
        let width = Int(bytes[3]) << 8 | Int(bytes[4])
        let count = Int(bytes[5])
        guard [1, 3, 4].contains(count), bytes.count == 6 + 3 * count,
              (1...65_500).contains(width), (1...65_500).contains(height) else { return nil }
        var ids: [UInt8] = []
        for index in 0..<count {
            let sampling = bytes[7 + 3 * index], table = bytes[8 + 3 * index]
            guard (1...4).contains(sampling >> 4), (1...4).contains(sampling & 0x0F), table < 4,
                  !ids.contains(bytes[6 + 3 * index]) else { return nil }
            ids.append(bytes[6 + 3 * index])
        }
        return (width, height, ids)
    }

    /// A scan header names 1...4 of the frame's components, each once.
    private static func scanIsValid(_ body: ArraySlice<UInt8>, frameComponents: [UInt8]) -> Bool {
        let bytes = Array(body)
        guard let count = bytes.first.map(Int.init), (1...4).contains(count), bytes.count == 4 + 2 * count else { return false }
        let ids = (0..<count).map { bytes[1 + 2 * $0] }
        return Set(ids).count == count && ids.allSatisfy(frameComponents.contains)
    }

    /// DQT: tables of 8- or 16-bit entries, numbered 0...3, filling the segment exactly.
    private static func quantisationTablesAreValid(_ body: ArraySlice<UInt8>) -> Bool {
        var index = body.startIndex
        while index < body.endIndex {
            let precision = body[index] >> 4, table = body[index] & 0x0F
            guard precision <= 1, table < 4 else { return false }
            index += 1 + 64 * (Int(precision) + 1)
        }
        return index == body.endIndex && !body.isEmpty
    }

    /// DHT: DC or AC tables numbered 0...3 of at most 256 codes, filling the segment exactly.
    private static func huffmanTablesAreValid(_ body: ArraySlice<UInt8>) -> Bool {
        var index = body.startIndex
        while index < body.endIndex {
            guard index + 17 <= body.endIndex else { return false }
            let kind = body[index] >> 4, table = body[index] & 0x0F
            let codes = body[(index + 1)..<(index + 17)].reduce(0) { $0 + Int($1) }
            guard kind <= 1, table < 4, codes <= 256 else { return false }
            index += 17 + codes
        }
        return index == body.endIndex && !body.isEmpty
    }
}

/// A JPEG file that could not be opened or read.
public struct JPEGHeaderError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let reason: String

    public var description: String { "\(path): cannot read the JPEG header: \(reason)" }
}
