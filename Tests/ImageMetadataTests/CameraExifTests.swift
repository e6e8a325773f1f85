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

    /// Exposure as ImageMagick reads these files' Exif directories (the D70 keeps its ISO in
    /// its maker note only, so it has none here).
    @Test(arguments: [
        ("jhead__canon-300d.jpg", 1.0 / 60, 4.5, 34.0, 400 as Int?),
        ("exiv2__exiv2-nikon-d70.jpg", 0.004, 9.0, 50.0, nil),
        ("goexif__sample1.jpg", 0.008, 4.5, 23.33, nil),
        ("jhead__sony.jpg", 0.025, 2.8, 7.65, 160),
    ])
    func exposureIsRead(_ name: String, _ time: Double, _ fNumber: Double, _ focalLength: Double, _ iso: Int?) throws {
        let entry = try #require(Self.files.first { $0.url.lastPathComponent == name })
        let segment = try #require(try JPEGExifLocator.locate(in: try Data(contentsOf: entry.url)))
        let metadata = try ExifReader.parse(segment.tiff)
        #expect(metadata.exposureTime.map { abs($0 - time) < 1e-9 } == true, "\(String(describing: metadata.exposureTime))")
        #expect(metadata.fNumber.map { abs($0 - fNumber) < 1e-9 } == true)
        #expect(metadata.focalLength.map { abs($0 - focalLength) < 1e-9 } == true)
        #expect(metadata.isoSpeed == iso)
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
