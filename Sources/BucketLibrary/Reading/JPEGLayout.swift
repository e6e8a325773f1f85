import Foundation

/// A JPEG's metadata is in the segments before its first scan (EXIF and its thumbnail in APP1,
/// the frame's size in SOF): those segments and the scan's header, a prefix of the file.
enum JPEGLayout {
    /// Headers longer than this are left to a whole read (the native reader's bound too).
    static let maximumHeaderBytes: Int64 = 8 << 20

    static func verdict(_ bytes: ObjectBytes) -> ObjectLayout.Verdict {
        var position: Int64 = 2
        while position < maximumHeaderBytes {
            guard position + 4 <= bytes.size else { return .whole }
            if let need = ObjectLayout.need(position..<(position + 2), in: bytes) { return need }
            let pair = bytes.bytes(at: position, count: 2)!
            guard pair[0] == 0xFF else { return .whole }
            switch pair[1] {
            case 0xFF:
                position += 1
                continue
            case 0xD0...0xD7, 0x01:
                position += 2
                continue
            case 0xD8, 0xD9:
                return .whole
            default:
                break
            }
            if let need = ObjectLayout.need((position + 2)..<(position + 4), in: bytes) { return need }
            let length = ObjectLayout.bigEndian(bytes.bytes(at: position + 2, count: 2)!)
            let end = position + 2 + length
            guard length >= 2, end <= bytes.size else { return .whole }
            if let need = ObjectLayout.need(position..<end, in: bytes) { return need }
            if pair[1] == 0xDA { return .complete }
            position = end
        }
        return .whole
    }
}
