import Foundation

/// Removes where a JPEG was taken from a copy of its bytes, leaving the image data and every
/// other piece of metadata as they were.
///
/// In each EXIF segment the GPS directory is emptied in place: every GPS value (inline or
/// pointed to) is overwritten with zeros and the directory's entry count set to 0, so the
/// segment keeps its length and every other offset stays valid. XMP segments, which may repeat
/// the location, are dropped whole. Nothing after the start of scan is touched.
public enum JPEGLocationRemover {
    /// Why the location could not be removed safely.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The data does not start with a JPEG SOI marker.
        case notJPEG
        /// The header segments or an EXIF directory are damaged (at `offset` in the file).
        case malformed(offset: Int)

        public var description: String {
            switch self {
            case .notJPEG: "not a JPEG"
            case .malformed(let offset): "damaged JPEG header or EXIF directory at byte \(offset)"
            }
        }
    }

    private static let exifSignature: [UInt8] = Array("Exif".utf8) + [0, 0]
    private static let xmpSignatures: [[UInt8]] = [Array("http://ns.adobe.com/xap/1.0/\0".utf8),
                                                   Array("http://ns.adobe.com/xmp/extension/\0".utf8)]

    /// `jpeg` without GPS values in its EXIF and without XMP segments.
    public static func removingLocation(from jpeg: Data) throws(Failure) -> Data {
        var bytes = [UInt8](jpeg)
        // A whole file always has a header: it ends at its first scan or at its last byte.
        let header = try cleanHeader(&bytes, isWholeFile: true)!
        return Data(header.bytes) + bytes[header.end...]
    }

    /// The header of a JPEG without location, cut from `prefix`, the first bytes of the file:
    /// everything before its first scan (or end of image), cleaned as
    /// ``removingLocation(from:)`` cleans it. The file's bytes from `restOffset` on are the
    /// same in the cleaned file, so a caller can send `header` and then stream the rest of the
    /// file unread: only the header is ever held in memory.
    ///
    /// - Returns: `nil` when the header goes on past `prefix` (read more and try again).
    public static func locationFreeHeader(in prefix: Data) throws(Failure) -> (header: Data, restOffset: Int)? {
        var bytes = [UInt8](prefix)
        guard let header = try cleanHeader(&bytes, isWholeFile: false) else { return nil }
        return (Data(header.bytes), header.end)
    }

    /// Empties the GPS directories of `bytes` in place, up to the first scan, and returns the
    /// header before that scan with XMP segments dropped, and the offset where the scan begins
    /// (`bytes.count` when the file ends first). With `isWholeFile` false, running out of bytes
    /// before the scan returns `nil` instead of throwing.
    private static func cleanHeader(_ bytes: inout [UInt8], isWholeFile: Bool) throws(Failure) -> (bytes: [UInt8], end: Int)? {
        guard bytes.count >= 2 || isWholeFile else { return nil }
        guard bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xD8 else { throw .notJPEG }
        var dropped: [Range<Int>] = []
        var offset = 2
        var headerEnd = bytes.count
        walk: while offset < bytes.count {
            guard bytes[offset] == 0xFF else { throw .malformed(offset: offset) }
            let markerStart = offset
            while offset < bytes.count, bytes[offset] == 0xFF { offset += 1 }
            guard offset < bytes.count else { break }
            let marker = bytes[offset]
            offset += 1
            switch marker {
            case 0xDA, 0xD9:
                headerEnd = markerStart
                break walk
            case 0x01, 0xD0...0xD7: continue walk
            case 0x00: throw .malformed(offset: markerStart)
            default: break
            }
            guard offset + 2 <= bytes.count else {
                if isWholeFile { throw .malformed(offset: markerStart) } else { return nil }
            }
            let end = offset + (Int(bytes[offset]) << 8 | Int(bytes[offset + 1]))
            guard end >= offset + 2 else { throw .malformed(offset: markerStart) }
            guard end <= bytes.count else {
                if isWholeFile { throw .malformed(offset: markerStart) } else { return nil }
            }
            let payload = offset + 2
            if marker == 0xE1 {
                if starts(bytes, at: payload, end: end, with: exifSignature) {
                    try emptyGPS(in: &bytes, tiff: (payload + exifSignature.count)..<end)
                } else if xmpSignatures.contains(where: { starts(bytes, at: payload, end: end, with: $0) }) {
                    dropped.append(markerStart..<end)
                }
            }
            offset = end
        }
        guard headerEnd < bytes.count || isWholeFile else { return nil }
        var header = Array(bytes[..<headerEnd])
        for range in dropped.reversed() { header.removeSubrange(range) }
        return (header, headerEnd)
    }

    private static func starts(_ bytes: [UInt8], at offset: Int, end: Int, with signature: [UInt8]) -> Bool {
        end - offset >= signature.count && bytes[offset..<(offset + signature.count)].elementsEqual(signature)
    }

    /// Empties the GPS directory of the TIFF block at `tiff` in `bytes`.
    private static func emptyGPS(in bytes: inout [UInt8], tiff: Range<Int>) throws(Failure) {
        let base = tiff.lowerBound
        guard tiff.count >= 8 else { throw .malformed(offset: base) }
        let little: Bool
        switch (bytes[base], bytes[base + 1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: throw .malformed(offset: base)
        }
        func read(_ at: Int, _ size: Int) throws(Failure) -> Int {
            guard at >= 0, size <= tiff.count, at <= tiff.count - size else { throw .malformed(offset: base + at) }
            var value = 0
            for index in 0..<size {
                let byte = Int(bytes[base + at + (little ? size - 1 - index : index)])
                value = value << 8 | byte
            }
            return value
        }
        func zero(_ at: Int, _ count: Int) throws(Failure) {
            guard at >= 0, count <= tiff.count, at <= tiff.count - count else { throw .malformed(offset: base + at) }
            for index in 0..<count { bytes[base + at + index] = 0 }
        }
        let ifd0 = try read(4, 4)
        let entries = try read(ifd0, 2)
        var gpsDirectory: Int?
        for index in 0..<entries where try read(ifd0 + 2 + index * 12, 2) == 0x8825 {
            gpsDirectory = try read(ifd0 + 2 + index * 12 + 8, 4)
        }
        guard let gps = gpsDirectory else { return }
        let count = try read(gps, 2)
        let typeSizes = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8]
        for index in 0..<count {
            let entry = gps + 2 + index * 12
            let size = (typeSizes[try read(entry + 2, 2)] ?? 1) * (try read(entry + 4, 4))
            if size > 4 { try zero(try read(entry + 8, 4), size) }
        }
        // Entries and the next-directory offset after them: an empty directory that ends the chain.
        try zero(gps, 2 + count * 12 + 4)
    }
}
