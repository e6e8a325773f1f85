import Foundation
import ImageMetadata
import TestSupport
import Testing

/// Every A_camera_exif file reads back what the corpus manifest records.
struct CameraExifTests {
    static let files = Corpus.manifest(inFolder: "A_camera_exif")

    @Test func corpusIsPresent() {
        #expect(Self.files.count >= 10, "corpus not found at \(Corpus.root.path)")
        #expect(Self.files.allSatisfy { $0.exif["Make"] != nil })
    }

    @Test(arguments: files)
    func metadataMatchesManifest(_ entry: ManifestEntry) throws {
        let jpeg = try Data(contentsOf: entry.url)
        let segment = try #require(try JPEGExifLocator.locate(in: jpeg))
        let metadata = try ExifReader.parse(segment.tiff)

        #expect(metadata.make == entry.exif["Make"])
        #expect(metadata.model == entry.exif["Model"])
        #expect(metadata.dateTimeOriginal?.exifString == entry.exif["DateTimeOriginal"])
        #expect(metadata.orientation == entry.exif["Orientation"].flatMap { Int($0) })
        #expect(metadata.byteOrder.rawValue == entry.exif["ByteOrder"])
        if let expected = entry.exif["GPS"] {
            let parts = expected.split(separator: ",").compactMap { Double($0) }
            let gps = try #require(metadata.gps)
            #expect(abs(gps.latitude - parts[0]) < 1e-4)
            #expect(abs(gps.longitude - parts[1]) < 1e-4)
        } else {
            #expect(metadata.gps == nil)
        }
    }

    @Test(arguments: files)
    func embeddedThumbnailMatchesManifest(_ entry: ManifestEntry) throws {
        let expectedLength = try #require(entry.exif["ExifThumbnail"].flatMap { Int($0.dropLast()) })
        let thumbnail = try #require(try EmbeddedThumbnail.extract(fromJPEGAt: entry.url))
        #expect(thumbnail.count == expectedLength)
        #expect(thumbnail.prefix(2) == Data([0xFF, 0xD8]))
        #expect(EmbeddedThumbnail.extract(fromJPEGData: try Data(contentsOf: entry.url)) == thumbnail)
    }
}
