import AssetsKit
import Foundation
import ImageMetadata
import TestSupport
import Testing

/// EXIF written by ``ExifWriter`` into corpus JPEGs reads back the same, in both byte orders.
struct ExifWriterTests {
    static let files = Corpus.manifest(inFolder: "A_camera_exif")

    /// Reads `jpeg` back: its metadata (without the thumbnail range and the exposure, which
    /// the writer does not write) and its thumbnail.
    static func readBack(_ jpeg: Data) throws -> (metadata: ExifMetadata, thumbnail: Data?) {
        let segment = try #require(try JPEGExifLocator.locate(in: jpeg))
        var metadata = try ExifReader.parse(segment.tiff)
        metadata.thumbnail = nil
        (metadata.exposureTime, metadata.fNumber, metadata.focalLength, metadata.isoSpeed) = (nil, nil, nil, nil)
        return (metadata, EmbeddedThumbnail.extract(fromJPEGData: jpeg))
    }

    /// Equal, except that GPS degrees may differ by the rounding of degrees-minutes-seconds.
    static func expectEqual(_ read: ExifMetadata, _ written: ExifMetadata) {
        var read = read, written = written
        if let readGPS = read.gps, let writtenGPS = written.gps {
            #expect(abs(readGPS.latitude - writtenGPS.latitude) < 1e-9)
            #expect(abs(readGPS.longitude - writtenGPS.longitude) < 1e-9)
            #expect(readGPS.altitude == writtenGPS.altitude)
            read.gps = nil
            written.gps = nil
        }
        #expect(read == written)
    }

    @Test(arguments: files, ExifByteOrder.allCases)
    func corpusMetadataRoundTrips(_ entry: ManifestEntry, byteOrder: ExifByteOrder) throws {
        let original = try Data(contentsOf: entry.url)
        var (metadata, thumbnail) = try Self.readBack(original)
        let thumbnailBytes = try #require(thumbnail)
        metadata.byteOrder = byteOrder

        let stripped = try ExifWriter.removingExif(from: original)
        #expect(try JPEGExifLocator.locate(in: stripped) == nil)
        let written = try ExifWriter.inserting(metadata, thumbnail: thumbnailBytes, into: stripped)

        let (readMetadata, readThumbnail) = try Self.readBack(written)
        Self.expectEqual(readMetadata, metadata)
        #expect(readThumbnail == thumbnailBytes)
        #expect(try JPEGExifLocator.locate(in: written)?.segmentRange.lowerBound == 2)
        #expect(try ExifWriter.removingExif(from: written) == stripped)
    }

    @Test(arguments: ExifByteOrder.allCases)
    func everyFieldRoundTrips(_ byteOrder: ExifByteOrder) throws {
        let metadata = ExifMetadata(
            byteOrder: byteOrder, orientation: 6, make: "AssetsPicker", model: "Demo Camera 4000",
            dateTimeOriginal: ExifDateTime(year: 2024, month: 2, day: 29, hour: 23, minute: 59, second: 58, subsecond: 0.125),
            offsetTimeOriginal: -(5 * 3600 + 30 * 60),
            gps: GeoLocation(latitude: -33.856_784, longitude: -70.648_274_5, altitude: -12.5),
            pixelXDimension: 4000, pixelYDimension: 3000)
        let jpeg = try Data(contentsOf: try #require(Self.files.first).url)
        let thumbnail = try #require(EmbeddedThumbnail.extract(fromJPEGData: jpeg))

        let written = try ExifWriter.inserting(metadata, thumbnail: thumbnail, into: jpeg)
        let (readMetadata, readThumbnail) = try Self.readBack(written)
        Self.expectEqual(readMetadata, metadata)
        #expect(readMetadata.gps?.altitude == -12.5)
        #expect(readThumbnail == thumbnail)
    }

    @Test func withoutThumbnailThereIsNoIFD1() throws {
        let segment = try ExifWriter.app1Segment(for: ExifMetadata(orientation: 3), thumbnail: nil)
        let metadata = try ExifReader.parse(segment.dropFirst(4))
        #expect(metadata.orientation == 3)
        #expect(metadata.thumbnail == nil)
        #expect(metadata.gps == nil)
    }

    @Test func oversizedThumbnailIsRejected() throws {
        let thumbnail = Data([0xFF, 0xD8] + [UInt8](repeating: 0, count: 70_000))
        #expect(throws: ExifWriterError.self) {
            try ExifWriter.app1Segment(for: ExifMetadata(), thumbnail: thumbnail)
        }
        do {
            _ = try ExifWriter.app1Segment(for: ExifMetadata(), thumbnail: thumbnail)
        } catch let .segmentTooLarge(payloadBytes, thumbnailBytes) {
            #expect(payloadBytes > ExifWriter.maximumPayloadLength)
            #expect(thumbnailBytes == 70_002)
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func largestThumbnailThatFitsIsAccepted() throws {
        let empty = try ExifWriter.app1Segment(for: ExifMetadata(), thumbnail: Data([0xFF, 0xD8]))
        let room = ExifWriter.maximumPayloadLength - (empty.count - 4)
        let thumbnail = Data([0xFF, 0xD8] + [UInt8](repeating: 0, count: room))
        let segment = try ExifWriter.app1Segment(for: ExifMetadata(), thumbnail: thumbnail)
        #expect(segment.count == 2 + 65_535)
        #expect(throws: ExifWriterError.self) {
            try ExifWriter.app1Segment(for: ExifMetadata(), thumbnail: thumbnail + Data([0]))
        }
    }

    @Test func invalidInputsAreRejected() {
        #expect(throws: ExifWriterError.thumbnailNotJPEG) {
            try ExifWriter.app1Segment(for: ExifMetadata(), thumbnail: Data([1, 2, 3]))
        }
        #expect(throws: ExifWriterError.valueOutOfRange(field: "Orientation")) {
            try ExifWriter.app1Segment(for: ExifMetadata(orientation: 9), thumbnail: nil)
        }
        #expect(throws: ExifWriterError.valueOutOfRange(field: "GPS")) {
            try ExifWriter.app1Segment(for: ExifMetadata(gps: GeoLocation(latitude: 91, longitude: 0)), thumbnail: nil)
        }
        #expect(throws: ExifWriterError.notJPEG) {
            try ExifWriter.inserting(ExifMetadata(), thumbnail: nil, into: Data("GIF89a".utf8))
        }
    }
}
