import Foundation
import TestSupport

/// The shared test corpus, and scratch folders for video tests.
enum TestData {
    static let root = Corpus.root

    static func file(_ relativePath: String) -> URL {
        root.appendingPathComponent(relativePath)
    }

    /// A fresh temporary folder for one test.
    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("video-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}

/// The width and height in a PNG's IHDR chunk, or `nil` when the bytes are not a PNG.
func pngSize(_ data: Data) -> (width: Int, height: Int)? {
    let bytes = [UInt8](data.prefix(24))
    guard bytes.count == 24, Array(bytes[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
          Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
    func bigEndian(_ offset: Int) -> Int { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
    return (bigEndian(16), bigEndian(20))
}
