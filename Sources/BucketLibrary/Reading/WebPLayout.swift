import Foundation

/// A still WebP's metadata: its RIFF chunks' headers, the first bytes of the image chunk (the
/// frame's size) and every other chunk whole (`VP8X`, `ICCP`, and `EXIF`, usually at the end).
/// An animation is read whole (libwebp's demuxer checks every frame).
enum WebPLayout {
    /// The first bytes of a `VP8 ` or `VP8L` chunk that say the frame's size.
    static let frameHeaderBytes: Int64 = 30

    static func verdict(_ bytes: ObjectBytes) -> ObjectLayout.Verdict {
        var position: Int64 = 12
        while position < bytes.size {
            guard position + 8 <= bytes.size else { return .whole }
            if let need = ObjectLayout.need(position..<(position + 8), in: bytes) { return need }
            let header = bytes.bytes(at: position, count: 8)!
            let type = String(decoding: header[0..<4], as: UTF8.self)
            let length = ObjectLayout.littleEndian(header[4..<8])
            let end = position + 8 + length + (length & 1)
            guard end <= bytes.size else { return .whole }
            switch type {
            case "VP8 ", "VP8L":
                let wanted = position..<(position + 8 + min(length, frameHeaderBytes))
                if let need = ObjectLayout.need(wanted, in: bytes) { return need }
            case "ALPH":
                break
            case "ANIM", "ANMF":
                return .whole
            default:
                if let need = ObjectLayout.need(position..<end, in: bytes) { return need }
                if type == "VP8X", let flags = bytes.bytes(at: position + 8, count: 1), flags[0] & 0x02 != 0 { return .whole }
            }
            position = end
        }
        return .complete
    }
}
