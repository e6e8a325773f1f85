import AssetsKit
import Foundation
import MediaProbing
import Testing
import TestSupport

@Suite("Camera photos: dates, sizes, places and cameras as the manifest notes them")
struct MediaMetadataReaderTests {
    static let cameraFiles = Corpus.files(in: "A_camera_exif")
    let reader = MediaMetadataReader(now: { ISO8601.date(from: "2026-11-22T00:00:00Z")! })

    @Test("the corpus is all there")
    func corpusPresent() {
        #expect(Self.cameraFiles.count == 15)
    }

    @Test("creation date is DateTimeOriginal", arguments: cameraFiles)
    func creationDate(_ file: URL) async throws {
        let noted = try #require(Corpus.exifField("DateTimeOriginal", of: file))
        let metadata = try await reader.read(file, as: .photo)
        let expected = noted.replacingOccurrences(of: ":", with: "-", options: [], range: noted.startIndex..<noted.index(noted.startIndex, offsetBy: 10))
            .replacingOccurrences(of: " ", with: "T") + "Z"
        let date = try #require(metadata.creationDate)
        #expect(ISO8601.string(from: date, offset: nil) == expected)
    }

    @Test("pixel size is upright", arguments: cameraFiles)
    func uprightSize(_ file: URL) async throws {
        let stored = try #require(Corpus.notedStoredSize(of: file))
        let orientation = Corpus.exifField("Orientation", of: file).flatMap(Int.init) ?? 1
        let metadata = try await reader.read(file, as: .photo)
        let expected = orientation >= 5 ? PixelSize(width: stored.height, height: stored.width) : PixelSize(width: stored.width, height: stored.height)
        #expect(metadata.pixelSize == expected)
        #expect(metadata.orientation == orientation)
    }

    @Test("location matches the noted GPS position", arguments: cameraFiles)
    func location(_ file: URL) async throws {
        let metadata = try await reader.read(file, as: .photo)
        guard let noted = Corpus.exifField("GPS", of: file) else {
            #expect(metadata.location == nil)
            return
        }
        let parts = noted.split(separator: ",").compactMap { Double($0) }
        let location = try #require(metadata.location)
        #expect(abs(location.latitude - parts[0]) < 1e-4)
        #expect(abs(location.longitude - parts[1]) < 1e-4)
    }

    @Test("camera make and model, and the embedded thumbnail, are found", arguments: cameraFiles)
    func camera(_ file: URL) async throws {
        let metadata = try await reader.read(file, as: .photo)
        #expect(metadata.camera?.make == Corpus.exifField("Make", of: file))
        #expect(metadata.camera?.model == Corpus.exifField("Model", of: file))
        #expect(metadata.hasEmbeddedThumbnail == (Corpus.exifField("ExifThumbnail", of: file) != nil))
        #expect(metadata.format == "jpeg")
    }

    @Test("HEIC metadata: date, place and camera from its EXIF")
    func heic() async throws {
        let metadata = try await reader.read(Corpus.file("E_formats/exiv2__Stonehenge.heic"), as: .photo)
        #expect(metadata.creationDate.map { ISO8601.string(from: $0, offset: nil) } == "2015-07-16T15:38:54Z")
        #expect(abs((metadata.location?.latitude ?? 0) - 51.17828) < 1e-4)
        #expect(metadata.camera?.model == "NIKON D5300")
        #expect(metadata.pixelSize == PixelSize(width: 300, height: 200))
    }

    @Test("videos: duration, upright size and container date", arguments: [
        ("puremagic__test.mp4", 720, 480, 1.0), ("puremagic__test.mkv", 720, 480, 0.97), ("puremagic__test.3g2", 176, 144, 1.11),
    ])
    func video(_ name: String, _ width: Int, _ height: Int, _ duration: Double) async throws {
        let metadata = try await reader.read(Corpus.file("E_formats/\(name)"), as: .video)
        #expect(metadata.mediaType == .video)
        #expect(metadata.pixelSize == PixelSize(width: width, height: height))
        #expect(abs((metadata.duration ?? 0) - duration) < 0.06)
    }

    @Test("a video's frame rate is read by the same ffprobe run as the rest")
    func videoFrameRate() async throws {
        let metadata = try await reader.read(Corpus.file("E_formats/puremagic__test.mp4"), as: .video)
        #expect(metadata.framesPerSecond == 29.97)   // ffprobe: avg_frame_rate 2997/100
        let photo = try await reader.read(Corpus.file("A_camera_exif/jhead__sony.jpg"), as: .photo)
        #expect(photo.framesPerSecond == nil)
    }
}
