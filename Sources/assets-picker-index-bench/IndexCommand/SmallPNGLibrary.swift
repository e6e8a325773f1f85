import AssetsKit
import Foundation
import SyntheticMedia

/// A generated library of small PNGs in many folders, as a new user tried `index` on (issue
/// 28): no EXIF, so every photo gets a preview. Each file carries its own `tEXt` chunk, so no
/// two share a fingerprint.
struct SmallPNGLibrary {
    let root: URL
    let files: Int
    let folders: Int

    /// The folder of the library under `work`.
    init(work: URL, files: Int, folders: Int) {
        root = work.appendingPathComponent("png-\(files)-in-\(folders)", isDirectory: true)
        self.files = files
        self.folders = folders
    }

    /// Writes the library unless a finished one is already there (the stamp file is written last).
    func makeIfNeeded() throws {
        let stamp = root.deletingLastPathComponent().appendingPathComponent(root.lastPathComponent + ".complete")
        if FileManager.default.fileExists(atPath: stamp.path) { return }
        try? FileManager.default.removeItem(at: root)
        Log.stage("writing \(files) PNGs in \(folders) folders")
        let png = try SyntheticPhoto(size: PixelSize(width: 64, height: 48), seed: 5).encoded(as: .png)
        // The signature (8 bytes) and IHDR (25) first; the comment chunk goes right after them.
        let head = png.prefix(33), rest = png.dropFirst(33)
        for folder in 0..<folders {
            try FileManager.default.createDirectory(at: root.appendingPathComponent("f\(folder)"), withIntermediateDirectories: true)
        }
        for index in 0..<files {
            var data = Data(head)
            data.append(Self.chunk("tEXt", Array("Comment\u{0}photo \(index)".utf8)))
            data.append(rest)
            try data.write(to: root.appendingPathComponent("f\(index % folders)/IMG_\(index).png"))
        }
        _ = FileManager.default.createFile(atPath: stamp.path, contents: Data())
    }

    /// A PNG chunk: length, type, data, CRC-32 of type and data.
    private static func chunk(_ type: String, _ body: [UInt8]) -> Data {
        let typed = Array(type.utf8) + body
        var data = Data()
        for value in [UInt32(body.count)] { withUnsafeBytes(of: value.bigEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: typed)
        withUnsafeBytes(of: crc32(typed).bigEndian) { data.append(contentsOf: $0) }
        return data
    }

    /// CRC-32 (ISO 3309, as PNG uses it), bit by bit: a few dozen bytes per file.
    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
