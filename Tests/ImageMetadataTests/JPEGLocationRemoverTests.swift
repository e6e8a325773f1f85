import Foundation
import ImageMetadata
import Testing
import TestSupport

/// A JPEG's location is removed from a copy, and nothing else of it changes.
@Suite struct JPEGLocationRemoverTests {
    static let cameraPhotos = Corpus.files(in: "A_camera_exif") { $0.pathExtension.lowercased() == "jpg" }.sorted { $0.path < $1.path }

    @Test("GPS values are gone, the rest of the EXIF and the image data stay", arguments: cameraPhotos)
    func locationIsRemoved(_ file: URL) throws {
        let original = try Data(contentsOf: file)
        let cleaned = try JPEGLocationRemover.removingLocation(from: original)
        let before = try #require(try JPEGExifLocator.locate(in: original))
        let after = try #require(try JPEGExifLocator.locate(in: cleaned))
        let exifBefore = try ExifReader.parse(before.tiff), exifAfter = try ExifReader.parse(after.tiff)
        #expect(exifAfter.gps == nil)
        #expect(exifAfter.make == exifBefore.make && exifAfter.model == exifBefore.model)
        #expect(exifAfter.dateTimeOriginal == exifBefore.dateTimeOriginal && exifAfter.orientation == exifBefore.orientation)
        // The GPS directory is emptied in place: no byte moves, and outside the EXIF segment
        // nothing changes but XMP segments dropped whole.
        #expect(before.segmentRange == after.segmentRange)
        #expect(original.prefix(before.segmentRange.lowerBound) == cleaned.prefix(after.segmentRange.lowerBound))
        let xmpSignature = Data("http://ns.adobe.com/xap/1.0/".utf8)
        if original.range(of: xmpSignature) == nil {
            #expect(original.suffix(from: before.segmentRange.upperBound) == cleaned.suffix(from: after.segmentRange.upperBound))
        } else {
            #expect(cleaned.range(of: xmpSignature) == nil)
        }
        if exifBefore.gps != nil { #expect(before.tiff != after.tiff) }
    }

    @Test func theCorpusHasPhotosWithALocationToRemove() throws {
        let located = try Self.cameraPhotos.filter { file in
            let segment = try JPEGExifLocator.locate(in: Data(contentsOf: file))
            return try segment.map { try ExifReader.parse($0.tiff).gps != nil } ?? false
        }
        #expect(located.count >= 2)
    }

    @Test func xmpSegmentsAreDroppedWhole() throws {
        let xmp = Array("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta><exif:GPSLatitude>51,30N</exif:GPSLatitude></x:xmpmeta>".utf8)
        let segment: [UInt8] = [0xFF, 0xE1, UInt8((xmp.count + 2) >> 8), UInt8((xmp.count + 2) & 0xFF)] + xmp
        let original = try Data(contentsOf: Self.cameraPhotos[0])
        let withXMP = original.prefix(2) + Data(segment) + original.dropFirst(2)
        let cleaned = try JPEGLocationRemover.removingLocation(from: Data(withXMP))
        #expect(!String(decoding: cleaned, as: UTF8.self).contains("GPSLatitude"))
        #expect(cleaned.count == (try JPEGLocationRemover.removingLocation(from: original)).count)
    }

    @Test("The header alone, cleaned, followed by the file's own rest, is the cleaned file", arguments: cameraPhotos)
    func theHeaderAloneGivesTheSameBytes(_ file: URL) throws {
        let original = try Data(contentsOf: file)
        let cleaned = try JPEGLocationRemover.removingLocation(from: original)
        let (header, rest) = try #require(try JPEGLocationRemover.locationFreeHeader(in: original))
        #expect(header + original[rest...] == cleaned)
        // The rest begins at the first scan: nothing after it needs to be read to clean the file.
        #expect(original[rest..<(rest + 2)] == Data([0xFF, 0xDA]))
        // Any prefix that holds the header gives the same; a shorter one asks for more.
        let headerEnd = rest + 2
        for length in [headerEnd, headerEnd + 1, min(original.count, 64 << 10)] {
            let found = try #require(try JPEGLocationRemover.locationFreeHeader(in: original.prefix(length)), "\(length)")
            #expect(found.header == header && found.restOffset == rest)
        }
        for length in [0, 1, 2, rest / 2, rest, rest + 1] {
            #expect(try JPEGLocationRemover.locationFreeHeader(in: original.prefix(length)) == nil, "\(length)")
        }
    }

    @Test func notAJPEGOrADamagedHeaderIsRefused() {
        #expect(throws: JPEGLocationRemover.Failure.notJPEG) { try JPEGLocationRemover.removingLocation(from: Data("GIF89a".utf8)) }
        #expect(throws: JPEGLocationRemover.Failure.notJPEG) { try JPEGLocationRemover.locationFreeHeader(in: Data("GIF89a".utf8)) }
        #expect(throws: JPEGLocationRemover.Failure.self) {
            try JPEGLocationRemover.removingLocation(from: Data([0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF, 0x00]))
        }
    }
}
