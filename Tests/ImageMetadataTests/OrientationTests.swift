import Foundation
import ImageMetadata
import TestSupport
import Testing

/// The B_orientation JPEGs (goexif f1…f8, Pillow hoppers) read the orientation the manifest records.
struct OrientationTests {
    static let files = Corpus.manifest(inFolder: "B_orientation", withExtension: "jpg")

    @Test func allEightOrientationsAreCovered() {
        #expect(Set(Self.files.compactMap { $0.exif["Orientation"].flatMap { Int($0) } }) == Set(1...8))
    }

    @Test(arguments: files)
    func orientationMatchesManifest(_ entry: ManifestEntry) throws {
        let segment = try #require(try JPEGExifLocator.locate(in: Data(contentsOf: entry.url)))
        let metadata = try ExifReader.parse(segment.tiff)
        #expect(metadata.orientation == entry.exif["Orientation"].flatMap { Int($0) })
        #expect(metadata.byteOrder.rawValue == entry.exif["ByteOrder"])
    }
}
