import Foundation
import ImageMetadata
import Testing
import TestSupport

/// A location is read however a camera wrote it, as exiftool reads it: tags out of order, the
/// GPS pointer as a SLONG, coordinates written as text.
@Suite struct GPSReadingTests {
    private func location(_ gps: [(tag: UInt16, value: HandMadeTIFF.Value)], pointer: HandMadeTIFF.Value = .directory(1)) throws -> (Double, Double)? {
        let ifd0: [(tag: UInt16, value: HandMadeTIFF.Value)] = [(0x010F, .ascii("Canon")), (0x8825, pointer)]
        let tiff = HandMadeTIFF([.init(ifd0), .init(gps)])
        let metadata = try ExifReader.parse(Data(tiff.bytes))
        return metadata.gps.map { ($0.latitude, $0.longitude) }
    }

    @Test func aGPSPointerWrittenAsASignedLongIsFollowed() throws {
        // As exiv2's FurnaceCreekInn.jpg (a Canon PowerShot S5 IS, GPS added by a geotagger): 36° 26' 54" N, 116° 51' 18" W.
        let gps: [(tag: UInt16, value: HandMadeTIFF.Value)] = [
            (0x0001, .ascii("N")), (0x0002, .rationals([(36, 1), (26, 1), (54, 1)])),
            (0x0003, .ascii("W")), (0x0004, .rationals([(116, 1), (51, 1), (18, 1)])),
        ]
        let (latitude, longitude) = try #require(try location(gps, pointer: .signedDirectory(1)))
        #expect(abs(latitude - 36.448333) < 1e-5)
        #expect(abs(longitude + 116.855) < 1e-5)
    }

    @Test func coordinatesWrittenAsTextAndTagsOutOfOrderAreRead() throws {
        // As goexif's geodegrees_as_string.jpg: ASCII coordinates, the tags out of sequence; exiftool reads 52° 0' 50" N, 11° 0' 10" E.
        let gps: [(tag: UInt16, value: HandMadeTIFF.Value)] = [
            (0x0006, .rationals([(0, 1024)])), (0x0005, .bytes([0])),
            (0x0002, .ascii("52,00000,50,00000,34,01180")), (0x0001, .ascii("N")),
            (0x0004, .ascii("11,00000,10,00000,58,28360")), (0x0003, .ascii("E")),
        ]
        let (latitude, longitude) = try #require(try location(gps))
        #expect(abs(latitude - (52 + 50.0 / 3600)) < 1e-6)
        #expect(abs(longitude - (11 + 10.0 / 3600)) < 1e-6)
    }

    @Test func textWithoutNumbersIsNoLocation() throws {
        #expect(try location([(0x0002, .ascii("north")), (0x0004, .ascii("east"))]) == nil)
    }
}
