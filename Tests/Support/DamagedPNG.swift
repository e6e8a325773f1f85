import Foundation

/// Damaged files made from the corpus, for hostile-input tests.
public enum DamagedPNG {
    /// PngSuite's `basn0g01.png` with its IDAT chunk's CRC flipped — PngSuite's `xcsn0g01.png` —
    /// written to `folder` as `name`.
    public static func badIDATCRC(in folder: URL, name: String = "xcsn0g01.png") throws -> URL {
        var bytes = [UInt8](try Data(contentsOf: Corpus.file("C_pngsuite/basn0g01.png")))
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self) == "IDAT" {
                bytes[offset + 8 + length] ^= 0xFF
                break
            }
            offset += 12 + length
        }
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }
}
