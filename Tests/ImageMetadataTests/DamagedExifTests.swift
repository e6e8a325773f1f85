import Foundation
import ImageMetadata
import Testing
import TestSupport

/// Every A_camera_exif EXIF block, truncated at many lengths and with bytes flipped at many
/// (seeded) positions, parses or throws ExifError, never crashes, and stays self-consistent.
struct DamagedExifTests {
    static let files = Corpus.manifest(inFolder: "A_camera_exif")

    static func exifSegment(of entry: ManifestEntry) throws -> (jpeg: Data, segment: ExifSegment) {
        let jpeg = try Data(contentsOf: entry.url)
        return (jpeg, try #require(try JPEGExifLocator.locate(in: jpeg)))
    }

    /// Parses `block` and checks what a successful parse promises.
    static func parseChecked(_ block: Data) -> ExifMetadata? {
        switch Result(catching: { () throws(ExifError) in try ExifReader.parse(block) }) {
        case let .success(metadata):
            #expect(metadata.thumbnail.map { $0.lowerBound >= 0 && $0.upperBound <= block.count } ?? true)
            #expect(metadata.orientation.map { (1...8).contains($0) } ?? true)
            #expect(metadata.gps?.isValid ?? true)
            return metadata
        case .failure:
            return nil
        }
    }

    @Test(arguments: files)
    func truncatedBlocks(_ entry: ManifestEntry) throws {
        let tiff = try Self.exifSegment(of: entry).segment.tiff
        let original = try ExifReader.parse(tiff)
        let lengths = Array(0..<64) + Array(stride(from: 64, to: tiff.count, by: max(1, tiff.count / 200))) + [tiff.count]
        for length in lengths {
            let metadata = Self.parseChecked(tiff.prefix(length))
            if length < 8 {
                #expect(metadata == nil, "a \(length)-byte block has no complete TIFF header")
            } else {
                #expect(metadata?.byteOrder == original.byteOrder)
            }
        }
        #expect(Self.parseChecked(tiff) == original)
    }

    @Test(arguments: files)
    func flippedBytes(_ entry: ManifestEntry) throws {
        let (jpeg, segment) = try Self.exifSegment(of: entry)
        var generator = SeededGenerator(seed: entry.file.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) })
        for round in 0..<400 {
            var block = [UInt8](segment.tiff)
            // Mostly near the start, where the IFDs and their offsets live.
            let span = round % 4 == 0 ? block.count : min(block.count, 2048)
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                block[Int.random(in: 0..<span, using: &generator)] ^= UInt8.random(in: 1...255, using: &generator)
            }
            _ = Self.parseChecked(Data(block))

            var damagedJPEG = jpeg
            let position = segment.tiffOffset - 10 + Int.random(in: 0..<min(span, 64), using: &generator)
            damagedJPEG[position] ^= UInt8.random(in: 1...255, using: &generator)
            if let thumbnail = EmbeddedThumbnail.extract(fromJPEGData: damagedJPEG) {
                #expect(thumbnail.prefix(2) == Data([0xFF, 0xD8]))
            }
        }
    }
}
