import AssetsKit
import Foundation
import ImagePipeline
import Testing
import TestSupport

/// A damaged file gets the same answer on every path and every time: refused.
@Suite("A PNG with a bad IDAT CRC is refused every time")
struct SameAnswerTests {
    /// PngSuite's xcsn0g01.png, made in a temporary folder.
    static func badCRC() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bad-crc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try DamagedPNG.badIDATCRC(in: folder)
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
