import Foundation

/// A PNG's metadata: the chunks before its first `IDAT` (size, colour, an `eXIf` libvips reads);
/// without an `eXIf` there, `PNGExifLocator` walks every chunk header to `IEND` for one (and for
/// ImageMagick's EXIF in `tEXt`), so every header, and those chunks, are needed too.
enum PNGLayout {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// `tEXt` chunks longer than this are not read for EXIF (`PNGExifLocator`'s bound).
    static let maximumTextChunk: Int64 = 1 << 20

    static func verdict(_ bytes: ObjectBytes) -> ObjectLayout.Verdict {
        var position: Int64 = 8
        var hasExifBeforeData = false
        var inData = false
        while position < bytes.size {
            guard position + 12 <= bytes.size else { return .whole }
            if let need = ObjectLayout.need(position..<(position + 8), in: bytes) { return need }
            let header = bytes.bytes(at: position, count: 8)!
            let length = ObjectLayout.bigEndian(header[0..<4])
            let type = String(decoding: header[4..<8], as: UTF8.self)
            let end = position + 12 + length
            guard length < 1 << 31, end <= bytes.size else { return .whole }
            switch type {
            case "IDAT":
                if hasExifBeforeData { return .complete }
                inData = true
            case "IEND":
                return .complete
            case "eXIf":
                if let need = ObjectLayout.need(position..<end, in: bytes) { return need }
                if !inData { hasExifBeforeData = true }
            case "tEXt" where length <= maximumTextChunk:
                if let need = ObjectLayout.need(position..<end, in: bytes) { return need }
            default:
                if !inData, let need = ObjectLayout.need(position..<end, in: bytes) { return need }
            }
            position = end
        }
        return .whole
    }
}
