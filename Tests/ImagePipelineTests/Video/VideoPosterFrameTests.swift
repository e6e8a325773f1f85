import AssetsKit
import Foundation
import ProcessRunning
import Testing
import TestSupport
@testable import ImagePipeline

@Suite("VideoPosterFrame")
struct VideoPosterFrameTests {
    @Test(arguments: [
        ("E_formats/puremagic__test.mp4", 720, 480),
        ("E_formats/puremagic__test.mkv", 720, 480),
        ("E_formats/puremagic__test.3g2", 176, 144),
    ])
    func fullSizeFrame(path: String, width: Int, height: Int) async throws {
        let png = try await VideoPosterFrame.extract(from: TestData.file(path), maxSize: .maximum)
        let size = try #require(pngSize(png))
        #expect(size.width == width && size.height == height)
    }

    @Test(arguments: [
        ("E_formats/puremagic__test.mp4", 256, 171),
        ("E_formats/puremagic__test.mkv", 256, 171),
        // Already smaller than the box: never enlarged.
        ("E_formats/puremagic__test.3g2", 176, 144),
    ])
    func scaledToFit(path: String, width: Int, height: Int) async throws {
        let png = try await VideoPosterFrame.extract(from: TestData.file(path), maxSize: PixelSize(width: 256, height: 256))
        let size = try #require(pngSize(png))
        #expect(size.width == width && size.height == height)
    }

    @Test func seekPastTheEndFallsBackToTheFirstFrame() async throws {
        let png = try await VideoPosterFrame.extract(from: TestData.file("E_formats/puremagic__test.mp4"),
                                                     maxSize: PixelSize(width: 100, height: 100), at: 30)
        let size = try #require(pngSize(png))
        #expect(size.width == 100 && size.height == 67)
    }

    @Test func movWithoutFramesIsNoFrames() async throws {
        let mov = TestData.file("E_formats/exiftool__QuickTime.mov")
        await #expect(throws: VideoError.noFrames(file: mov)) {
            _ = try await VideoPosterFrame.extract(from: mov, maxSize: PixelSize(width: 256, height: 256))
        }
    }

    @Test func rotatedVideoGivesAnUprightPortraitFrame() async throws {
        let video = try await RotatedVideo.make()
        let png = try await VideoPosterFrame.extract(from: video, maxSize: .maximum)
        let size = try #require(pngSize(png))
        #expect(size.width == 240 && size.height == 320)

        // testsrc2's leftmost bar is red; turned 90° clockwise it becomes the top row
        // (counter-clockwise would put the cyan bar there).
        let file = try TestData.temporaryFolder().appendingPathComponent("poster.png")
        try png.write(to: file)
        let raw = try await ToolRunner.fixture(.ffmpeg, arguments: [
            "-nostdin", "-loglevel", "error", "-i", file.path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-",
        ])
        let pixels = [UInt8](raw.standardOutput)
        try #require(pixels.count == 240 * 320 * 3)
        let offset = (4 * 240 + 60) * 3
        let (red, green, blue) = (pixels[offset], pixels[offset + 1], pixels[offset + 2])
        #expect(red > 180 && green < 80 && blue < 80, "top row pixel is (\(red), \(green), \(blue)), not red")
    }

    @Test func missingFileIsNamed() async throws {
        let missing = URL(fileURLWithPath: "/nonexistent/clip.mov")
        await #expect(throws: VideoError.fileNotFound(file: missing)) {
            _ = try await VideoPosterFrame.extract(from: missing, maxSize: PixelSize(width: 64, height: 64))
        }
    }

    @Test func scaleFilterNeverEnlarges() {
        #expect(VideoPosterFrame.scaleFilter(fitting: PixelSize(width: 256, height: 128))
            == "scale=w='min(iw,256)':h='min(ih,128)':force_original_aspect_ratio=decrease")
        #expect(VideoPosterFrame.scaleFilter(fitting: .maximum)
            == "scale=w='min(iw,65536)':h='min(ih,65536)':force_original_aspect_ratio=decrease")
    }
}
