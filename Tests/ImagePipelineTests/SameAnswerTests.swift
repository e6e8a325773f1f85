import AssetsKit
import Foundation
import ImagePipeline
import Testing
import TestSupport

/// A damaged file gets the same answer on every path and every time: refused.
@Suite("A PNG with a bad IDAT CRC is refused every time")
struct SameAnswerTests {
    /// PngSuite's basn0g01.png with its IDAT chunk's CRC flipped (PngSuite's xcsn0g01.png), in a temporary folder.
    static func badCRC() throws -> URL {
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
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bad-crc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("xcsn0g01.png")
        try Data(bytes).write(to: url)
        return url
    }

    @Test("rendered twenty times at sizes below and above its own, and at full resolution, it is refused each time for its CRC")
    func repeatedRenders() throws {
        let file = try Self.badCRC()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let renderer = ImageRenderer()
        func expectRefused(_ attempt: String, _ render: () throws -> ImageResult) {
            do {
                let result = try render()
                Issue.record("\(attempt): rendered \(result.pixelSize)")
            } catch {
                #expect("\(error)".contains("IDAT chunk fails its CRC check"), "\(attempt): \(error)")
            }
        }
        for attempt in 0..<20 {
            for side in [16, 50, 256] {
                expectRefused("attempt \(attempt) at \(side)") {
                    try renderer.render(file, size: PixelSize(width: side, height: side), mode: .fill, format: .jpeg, quality: 80)
                }
            }
            expectRefused("attempt \(attempt) at full resolution") { try renderer.fullResolution(file, format: .jpeg, quality: 80) }
        }
    }
}
