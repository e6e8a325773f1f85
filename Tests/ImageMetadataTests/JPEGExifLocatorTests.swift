import Foundation
import ImageMetadata
import Testing

/// The marker walk on hand-built JPEG headers.
struct JPEGExifLocatorTests {
    static let soi: [UInt8] = [0xFF, 0xD8]
    static let tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00]

    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
    }

    static let exifAPP1 = segment(0xE1, Array("Exif".utf8) + [0, 0] + tiff)

    @Test func findsExifAfterOtherSegmentsFillBytesAndStandaloneMarkers() throws {
        let xmp = Self.segment(0xE1, Array("http://ns.adobe.com/xap/1.0/\0<x/>".utf8))
        let header = Self.soi + Self.segment(0xE0, Array("JFIF\0".utf8)) + xmp + [0xFF, 0xFF, 0xFF, 0x01, 0xFF, 0xD3]
        let jpeg = Data(header + Self.exifAPP1 + [0xFF, 0xDA])
        let found = try #require(try JPEGExifLocator.locate(in: jpeg))
        #expect(found.tiff == Data(Self.tiff))
        #expect(found.tiffOffset == header.count + 10)
        #expect(found.segmentRange == header.count..<(header.count + Self.exifAPP1.count))
    }

    @Test func worksOnSlicesWithNonZeroStartIndex() throws {
        let padded = Data([0, 0, 0] + Self.soi + Self.exifAPP1)
        let found = try #require(try JPEGExifLocator.locate(in: padded.dropFirst(3)))
        #expect(found.tiffOffset == 12)
        #expect(found.tiff == Data(Self.tiff))
    }

    @Test func stopsAtStartOfScanAndEndOfImage() throws {
        #expect(try JPEGExifLocator.locate(in: Data(Self.soi + [0xFF, 0xDA] + Self.exifAPP1)) == nil)
        #expect(try JPEGExifLocator.locate(in: Data(Self.soi + [0xFF, 0xD9] + Self.exifAPP1)) == nil)
    }

    @Test func nonJPEGAndEmptyDataGiveNil() throws {
        #expect(try JPEGExifLocator.locate(in: Data()) == nil)
        #expect(try JPEGExifLocator.locate(in: Data([0xFF])) == nil)
        #expect(try JPEGExifLocator.locate(in: Data("\u{89}PNG\r\n".utf8)) == nil)
        #expect(try JPEGExifLocator.locate(in: Data(Self.soi)) == nil)
    }

    @Test func brokenStructureThrows() {
        let truncated = Data(Self.soi + Self.exifAPP1.dropLast(3))
        #expect(throws: JPEGStructureError.truncatedSegment(marker: 0xE1, offset: 2, end: 2 + Self.exifAPP1.count,
                                                            available: truncated.count)) {
            try JPEGExifLocator.locate(in: truncated)
        }
        #expect(throws: JPEGStructureError.invalidSegmentLength(marker: 0xE1, offset: 2, length: 1)) {
            try JPEGExifLocator.locate(in: Data(Self.soi + [0xFF, 0xE1, 0x00, 0x01]))
        }
        #expect(throws: JPEGStructureError.missingMarker(offset: 2, byte: 0x12)) {
            try JPEGExifLocator.locate(in: Data(Self.soi + [0x12, 0x34]))
        }
    }
}
