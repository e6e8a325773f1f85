import AssetsKit
import Foundation
import ImagePipeline
import Testing
import TestSupport
@testable import MediaProbing

@Suite("VideoProbe")
struct VideoProbeTests {
    @Test func mp4() async throws {
        let info = try await VideoProbe.probe(Corpus.file("E_formats/puremagic__test.mp4"))
        #expect(abs(try #require(info.duration) - 1.003) < 0.05)
        #expect(info.codedSize == PixelSize(width: 720, height: 480))
        #expect(info.rotation == 0)
        #expect(info.uprightSize == PixelSize(width: 720, height: 480))
        #expect(info.codecName == "h264")
        #expect(info.frameCount == 29)
        #expect(info.formatName == "mov,mp4,m4a,3gp,3g2,mj2")
        #expect(info.creationDate == nil)
        #expect(info.framesPerSecond == 29.97) // ffprobe: avg_frame_rate 2997/100
    }

    @Test func mkvCreationDateFromContainerTags() async throws {
        let info = try await VideoProbe.probe(Corpus.file("E_formats/puremagic__test.mkv"))
        #expect(abs(try #require(info.duration) - 0.967) < 0.05)
        #expect(info.codedSize == PixelSize(width: 720, height: 480))
        #expect(info.codecName == "hevc")
        #expect(info.frameCount == nil)
        #expect(info.formatName == "matroska,webm")
        #expect(info.creationDate == ISO8601.date(from: "2020-03-18T18:27:35Z"))
    }

    @Test func threeG2() async throws {
        let info = try await VideoProbe.probe(Corpus.file("E_formats/puremagic__test.3g2"))
        #expect(abs(try #require(info.duration) - 1.11) < 0.05)
        #expect(info.codedSize == PixelSize(width: 176, height: 144))
        #expect(info.codecName == "h263")
        #expect(info.frameCount == 14)
        #expect(info.creationDate == ISO8601.date(from: "2013-01-06T04:42:01Z"))
    }

    @Test func movWithoutMediaStillProbesAndSkipsCoverArt() async throws {
        // The file keeps its metadata but not its media; ffprobe still reports the streams.
        // Its 8x8 attached picture must not be taken for the video stream.
        let info = try await VideoProbe.probe(Corpus.file("E_formats/exiftool__QuickTime.mov"))
        #expect(info.codedSize == PixelSize(width: 320, height: 240))
        #expect(info.codecName == "mjpeg")
        #expect(abs(try #require(info.duration) - 4.967) < 0.05)
        #expect(info.creationDate == ISO8601.date(from: "2005-08-11T14:03:54Z"))
    }

    @Test func rotatedVideo() async throws {
        let video = try await RotatedVideo.make()
        let info = try await VideoProbe.probe(video)
        #expect(info.codedSize == PixelSize(width: 320, height: 240))
        #expect(info.rotation == 90)
        #expect(info.uprightSize == PixelSize(width: 240, height: 320))
        #expect(abs(try #require(info.duration) - 1.0) < 0.05)
    }

    @Test func stillImageIsNotAVideo() async throws {
        let jpeg = Corpus.file("A_camera_exif/jhead__sony.jpg")
        await #expect(throws: VideoError.noVideoStream(file: jpeg)) { _ = try await VideoProbe.probe(jpeg) }
    }

    @Test func textFileIsUnreadable() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("video-probe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let text = folder.appendingPathComponent("notes.mp4")
        try Data("not a video\n".utf8).write(to: text)
        let error = await #expect(throws: VideoError.self) { _ = try await VideoProbe.probe(text) }
        guard case let .unreadable(file, reason) = error else {
            Issue.record("expected unreadable, got \(String(describing: error))")
            return
        }
        #expect(file == text)
        #expect(reason.contains("Invalid data"))
        #expect(error?.description.contains("notes.mp4") == true)
    }

    @Test func missingFileIsNamed() async throws {
        let missing = URL(fileURLWithPath: "/nonexistent/holiday.mp4")
        let error = await #expect(throws: VideoError.fileNotFound(file: missing)) { _ = try await VideoProbe.probe(missing) }
        #expect(error?.description == "/nonexistent/holiday.mp4: no such file")
    }

    @Test(arguments: [
        ("2020-03-18T18:27:35.000000Z", "2020-03-18T18:27:35Z"),
        ("2013-01-06 04:42:01", "2013-01-06T04:42:01Z"),
        ("2019-10-14T17:00:20+0200", "2019-10-14T15:00:20Z"),
    ])
    func creationDateForms(text: String, expected: String) {
        #expect(VideoProbe.creationDate(text) == ISO8601.date(from: expected))
    }

    @Test(arguments: [("30000/1001", 30000.0 / 1001), ("25/1", 25.0), ("0/0", nil), ("0/1", nil), ("25", nil), ("1/0", nil), ("junk", nil)] as [(String, Double?)])
    func frameRateForms(text: String, expected: Double?) {
        #expect(VideoProbe.frameRate(text) == expected)
    }

    @Test(arguments: ["1904-01-01T00:00:00.000000Z", "1970-01-01T00:00:00.000000Z", "0000-00-00", "junk", ""])
    func placeholderCreationDatesAreIgnored(text: String) {
        #expect(VideoProbe.creationDate(text) == nil)
    }
}
