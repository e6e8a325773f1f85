import Foundation

/// Reads the real pixel size of a written image from its bytes, with no image library, so a
/// test does not take the CLI's word for it.
public enum ImageFileProbe {
    /// The size a JPEG's start-of-frame marker (SOF0...SOF15 but DHT, JPG, DAC) gives; `nil`
    /// when the data is not a JPEG or has no frame header.
    public static func jpegSize(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data)
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var index = 2
        while index + 3 < bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            var marker = bytes[index + 1]
            index += 1
            while marker == 0xFF, index + 1 < bytes.count { // fill bytes
                index += 1
                marker = bytes[index]
            }
            index += 1
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { continue } // no length
            if marker == 0xD9 || marker == 0xDA { return nil } // end of image or scan before a frame
            guard index + 1 < bytes.count else { return nil }
            let length = Int(bytes[index]) << 8 | Int(bytes[index + 1])
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard index + 6 < bytes.count else { return nil }
                let height = Int(bytes[index + 3]) << 8 | Int(bytes[index + 4])
                let width = Int(bytes[index + 5]) << 8 | Int(bytes[index + 6])
                return (width, height)
            }
            index += length
        }
        return nil
    }

    /// Whether the data is a RIFF/WEBP container.
    public static func isWebP(_ data: Data) -> Bool {
        data.count >= 12 && data.prefix(4) == Data("RIFF".utf8) && data.subdata(in: 8..<12) == Data("WEBP".utf8)
    }

    /// The canvas size of a WebP file (VP8X, VP8L or VP8 first chunk); `nil` when unreadable.
    public static func webpSize(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data)
        guard isWebP(data), bytes.count >= 30 else { return nil }
        let chunk = String(decoding: bytes[12..<16], as: UTF8.self)
        func le(_ offset: Int, _ count: Int) -> Int {
            (0..<count).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
        }
        switch chunk {
        case "VP8X":
            return (le(24, 3) + 1, le(27, 3) + 1)
        case "VP8L":
            guard bytes[20] == 0x2F else { return nil }
            let bits = le(21, 4)
            return ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
        case "VP8 ":
            guard bytes[23] == 0x9D, bytes[24] == 0x01, bytes[25] == 0x2A else { return nil }
            return (le(26, 2) & 0x3FFF, le(28, 2) & 0x3FFF)
        default:
            return nil
        }
    }
}
