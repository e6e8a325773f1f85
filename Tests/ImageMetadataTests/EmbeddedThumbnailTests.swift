import Foundation
import ImageMetadata
import Testing

/// Reading the thumbnail from files whose EXIF lies beyond the first read, or is absent.
struct EmbeddedThumbnailTests {
    static func temporaryFile(_ data: Data) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ImageMetadataTests-\(UUID().uuidString).jpg")
        try data.write(to: url)
        return url
    }

    /// A thumbnail of `size` bytes: SOI and zeros.
    static func thumbnail(size: Int) -> Data {
        Data([0xFF, 0xD8] + [UInt8](repeating: 0, count: size - 2))
    }

    @Test func exifSegmentReachingPastTheFirstReadIsReadToItsEnd() throws {
        let padding = [UInt8](repeating: 0x20, count: 60_000)
        let comment = [0xFF, 0xFE, UInt8((padding.count + 2) >> 8), UInt8((padding.count + 2) & 0xFF)] + padding
        let jpeg = Data([0xFF, 0xD8] + comment + [0xFF, 0xDA, 0x00, 0x02] + [UInt8](repeating: 0x55, count: 100_000))
        let thumbnail = Self.thumbnail(size: 40_000)
        let withExif = try ExifWriter.inserting(ExifMetadata(orientation: 8), thumbnail: thumbnail, into: jpeg)
        // Move the comment before the EXIF segment, so the segment ends past 64 KiB.
        let exifSegment = withExif[2..<(withExif.count - jpeg.count + 2)]
        let reordered = Data([0xFF, 0xD8] + comment) + exifSegment + jpeg.dropFirst(2 + comment.count)
        let located = try #require(try JPEGExifLocator.locate(in: reordered))
        #expect(located.segmentRange.upperBound > EmbeddedThumbnail.initialReadLength)

        let url = try Self.temporaryFile(reordered)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try EmbeddedThumbnail.extract(fromJPEGAt: url) == thumbnail)
    }

    @Test func filesWithoutThumbnailGiveNil() throws {
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02, 0x00, 0xFF, 0xD9])
        let noIFD1 = try ExifWriter.inserting(ExifMetadata(orientation: 1), thumbnail: nil, into: jpeg)
        #expect(EmbeddedThumbnail.extract(fromJPEGData: noIFD1) == nil)
        #expect(EmbeddedThumbnail.extract(fromJPEGData: jpeg) == nil)
        let url = try Self.temporaryFile(Data())
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try EmbeddedThumbnail.extract(fromJPEGAt: url) == nil)
    }

    @Test func missingFileThrows() {
        #expect(throws: (any Error).self) {
            try EmbeddedThumbnail.extract(fromJPEGAt: URL(fileURLWithPath: "/nonexistent/ImageMetadataTests.jpg"))
        }
    }
}
