import Foundation

/// A JPEG rebuilt from what it must keep, so that nothing of where it was taken can come along.
///
/// Nothing is cleaned: the header is written anew from an allow-list, and every segment not
/// on it is dropped, whatever it holds. The rebuilt file is
/// 1. SOI;
/// 2. the JFIF APP0, without its thumbnail;
/// 3. a new EXIF APP1 with only the fields of `ExifAllowList` (orientation, dates, camera,
///    lens, exposure, pixel size, colour space): no GPS, no IFD1 or thumbnail, no maker note,
///    no free text;
/// 4. the ICC profile's APP2 chunks, in sequence order, when they form one whole sequence;
/// 5. the Adobe APP14 (it says how the colours are coded), its fixed fields only;
/// 6. the frame and table segments (SOFn, DQT, DHT, DRI, DAC) in their order;
/// 7. the file's own bytes from its first scan (SOS) to the end of its first image (EOI),
///    less any APPn or COM segment between scans, as ``JPEGScanWalker`` finds them.
///
/// XMP (under any signature), IPTC and Photoshop's APP13, comments, MPF, any EXIF segment but
/// the first and any unknown APPn are dropped; anything after the first image's EOI (the
/// second image of an MPO, a motion photo's video, trailers) is never part of the result.
///
/// This type holds parts 1–6, made from the bytes before the first scan; the caller sends
/// them and then the ranges of the file that ``JPEGScanWalker`` keeps, so that only the header
/// is ever held in memory.
public struct LocationFreeJPEG: Sendable, Hashable {
    /// The rebuilt header: everything before the first scan.
    public let header: Data
    /// Where the first scan's SOS marker is in the source file: a ``JPEGScanWalker`` starts there.
    public let firstScanOffset: Int

    /// Rebuilds the header of the JPEG whose first bytes are `prefix`.
    ///
    /// - Parameter prefix: The file's first bytes; any length that holds its header (every
    ///   segment before the first SOS, and the SOS marker) gives the same result.
    /// - Returns: `nil` when the header goes on past `prefix`: read more of the file and try again.
    /// - Throws: ``JPEGRebuildError`` when the header is not one this type rebuilds.
    public static func header(in prefix: Data) throws(JPEGRebuildError) -> LocationFreeJPEG? {
        let bytes = [UInt8](prefix)
        guard bytes.count >= 2 else { return nil }
        guard bytes[0] == 0xFF, bytes[1] == 0xD8 else { throw .notJPEG }
        var jfif: [UInt8] = [], exif: [UInt8] = [], adobe: [UInt8] = [], tables: [UInt8] = []
        var sawExif = false, sawFrame = false
        var profile = ICCProfileSegments()
        var offset = 2
        while true {
            guard offset < bytes.count else { return nil }
            guard bytes[offset] == 0xFF else { throw .missingMarker(offset: Int64(offset), byte: bytes[offset]) }
            let markerStart = offset
            while offset < bytes.count, bytes[offset] == 0xFF { offset += 1 }
            guard offset < bytes.count else { return nil }
            let marker = bytes[offset]
            offset += 1
            switch marker {
            case 0x01, 0xD0...0xD7:
                continue // standalone markers out of place: nothing to keep
            case 0xDA:
                guard sawFrame else { throw .unexpectedMarker(marker: marker, offset: Int64(markerStart)) }
                let header = [0xFF, 0xD8] + jfif + exif + profile.orderedSegments + adobe + tables
                return LocationFreeJPEG(header: Data(header), firstScanOffset: markerStart)
            case 0x00, 0xD8, 0xD9:
                throw .unexpectedMarker(marker: marker, offset: Int64(markerStart))
            default:
                break
            }
            guard offset + 2 <= bytes.count else { return nil }
            let length = Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
            guard length >= 2 else { throw .invalidSegmentLength(marker: marker, offset: Int64(markerStart)) }
            let end = offset + length
            guard end <= bytes.count else { return nil }
            let payload = bytes[(offset + 2)..<end]
            switch marker {
            case 0xE0 where jfif.isEmpty && payload.count >= 14 && payload.starts(with: Self.jfifSignature):
                // Identifier, version, units and densities; no thumbnail (0 × 0).
                jfif = segment(0xE0, payload.prefix(12) + [0, 0])
            case 0xE1 where !sawExif && payload.starts(with: JPEGExifLocator.exifSignature):
                sawExif = true
                exif = ExifAllowList.app1Segment(keepingAllowedFieldsOf: payload.dropFirst(JPEGExifLocator.exifSignature.count)) ?? []
            case 0xE2 where ICCProfileSegments.isChunk(payload):
                profile.append(payload: payload)
            case 0xEE where adobe.isEmpty && payload.count >= 12 && payload.starts(with: Self.adobeSignature):
                // Identifier, version, two flag words and the colour transform.
                adobe = segment(0xEE, payload.prefix(12))
            case 0xE0...0xEF, 0xFE:
                break // any other APPn, and comments: dropped
            case 0xC0...0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
                guard !sawFrame else { throw .unexpectedMarker(marker: marker, offset: Int64(markerStart)) }
                sawFrame = true
                tables += segment(marker, payload)
            case 0xC4, 0xCC, 0xDB, 0xDD:
                tables += segment(marker, payload)
            default:
                throw .unexpectedMarker(marker: marker, offset: Int64(markerStart))
            }
            offset = end
        }
    }

    private static let jfifSignature: [UInt8] = Array("JFIF".utf8) + [0]
    private static let adobeSignature: [UInt8] = Array("Adobe".utf8)

    /// A whole segment: the marker, the length (which counts itself) and `payload`.
    private static func segment(_ marker: UInt8, _ payload: ArraySlice<UInt8>) -> [UInt8] {
        [0xFF, marker] + ExifByteOrder.bigEndian.bytes(of: UInt16(payload.count + 2)) + payload
    }
}
