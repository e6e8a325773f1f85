import AssetsKit
import Foundation
import ImagePipeline
import ProcessRunning
import MediaProbing
import Testing
import TestSupport

@Suite("Formats: decode what libvips can, a clear error for the rest")
struct FormatTests {
    let renderer = ImageRenderer()

    static let stills = Corpus.files(in: "E_formats") { MediaFileType.mediaType(ofFileNamed: $0.lastPathComponent) == .photo }

    /// Files this build must decode, with their upright size and format name.
    static let mustDecode: [(String, Int, Int, String)] = [
        ("exiv2__Stonehenge.heic", 300, 200, "heif"),
        ("libheif__example.avif", 800, 533, "avif"),
        ("exiv2__avif_exif_xmp.avif", 120, 120, "avif"),
        ("pheif__RGBA_10__128x128.heif", 128, 128, "heif"),
        ("giflib__fire.gif", 30, 60, "gif"),
        ("giflib__treescap-interlaced.gif", 40, 40, "gif"),
        ("libtiff__quad-tile.jpg.tiff", 512, 384, "tiff"),
        ("libtiff__minisblack-1c-16b.tiff", 157, 151, "tiff"),
        ("ximage__bw-gopher_ccittGroup4.tiff", 153, 55, "tiff"),
        ("libwebp__test.webp", 128, 128, "webp"),
        ("ximage__tux.lossless.webp", 386, 395, "webp"),
        ("ximage__yellow_rose.lossy-with-alpha.webp", 400, 301, "webp"),
        ("pillow__iss634.webp", 245, 245, "webp"),
        ("ljt__testimgari.jpg", 227, 149, "jpeg"),
        ("pillow__app13-multiple.jpg", 256, 160, "jpeg"),
        ("pillow__sugarshack.mpo", 640, 480, "jpeg"),
        ("pillow__num_plays.png", 128, 64, "png"),
    ]

    @Test("every still format decodes, or fails with an error naming the file", arguments: stills)
    func decodesOrExplains(_ file: URL) {
        do {
            let result = try renderer.render(file, size: PixelSize(width: 256, height: 256), mode: .fit, format: .webp, quality: 80)
            #expect(!result.data.isEmpty)
        } catch let error as ImagePipelineError {
            #expect(error.description.contains(file.lastPathComponent))
        } catch {
            Issue.record("untyped error \(error)")
        }
    }

    @Test("the formats this build supports decode at their real size", arguments: mustDecode)
    func decodes(_ name: String, _ width: Int, _ height: Int, _ format: String) async throws {
        try await offCooperativePool {
            let file = Corpus.file("E_formats/\(name)")
            let header = try renderer.header(of: file)
            #expect(header.format == format)
            #expect(header.uprightSize == PixelSize(width: width, height: height))
            let result = try renderer.render(file, size: PixelSize(width: 1000, height: 1000), mode: .fit, format: .jpeg, quality: 85)
            #expect(result.pixelSize == PixelSize(width: width, height: height))
            #expect(Array(result.data.prefix(2)) == [0xFF, 0xD8])
        }
    }

    @Test("an animated GIF gives its first frame, not a strip of frames")
    func gifFirstFrame() async throws {
        try await offCooperativePool {
            let file = Corpus.file("E_formats/giflib__fire.gif")
            #expect(try renderer.header(of: file).pageCount == 33)
            let result = try renderer.fullResolution(file, format: .jpeg, quality: 85)
            #expect(result.pixelSize == PixelSize(width: 30, height: 60))
        }
    }

    @Test("fill crops to exactly the target; fit keeps the aspect ratio inside it")
    func fitAndFill() async throws {
        try await offCooperativePool {
            let file = Corpus.file("E_formats/libheif__example.avif")
            let fill = try renderer.render(file, size: PixelSize(width: 256, height: 256), mode: .fill, format: .jpeg, quality: 85)
            #expect(fill.pixelSize == PixelSize(width: 256, height: 256))
            let fit = try renderer.render(file, size: PixelSize(width: 256, height: 256), mode: .fit, format: .webp, quality: 85)
            #expect(fit.pixelSize == PixelSize(width: 256, height: 171))
            #expect(String(decoding: fit.data[8..<12], as: UTF8.self) == "WEBP")
        }
    }

    @Test("a 12-bit JPEG decodes or is refused with a clear reason")
    func twelveBitJPEG() {
        let file = Corpus.file("E_formats/ljt__testorig12.jpg")
        do {
            let result = try renderer.render(file, size: PixelSize(width: 64, height: 64), mode: .fit, format: .jpeg, quality: 80)
            #expect(result.pixelSize.width > 0)
        } catch let error as ImagePipelineError {
            #expect(error.description.contains("ljt__testorig12.jpg"))
            #expect(error.description.count > "ljt__testorig12.jpg: ".count + 10)
        } catch {
            Issue.record("untyped error \(error)")
        }
    }

    @Test("a CMYK JPEG comes out as sRGB with the colours of its RGB source")
    func cmykJPEG() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cmyk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = Corpus.file("A_camera_exif/pillow__flower.jpg")
        let cmyk = folder.appendingPathComponent("cmyk.jpg")
        let made = try await ToolRunner.fixture(ExternalTool("vips", installHint: "install libvips-tools"),
                                            arguments: ["colourspace", source.path, cmyk.path, "cmyk"])
        try #require(made.succeeded, "vips colourspace: \(made.standardError)")
        #expect(try renderer.header(of: cmyk).storedSize == PixelSize(width: 480, height: 360))
        let size = PixelSize(width: 240, height: 180)
        let converted = try renderer.pixels(of: renderer.render(cmyk, size: size, mode: .fit, format: .jpeg, quality: 95).data, name: "cmyk")
        let reference = try renderer.pixels(of: renderer.render(source, size: size, mode: .fit, format: .jpeg, quality: 95).data, name: "rgb")
        #expect(converted.bands == 3)
        let difference = zip(converted.bytes, reference.bytes).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        #expect(Double(difference) / Double(reference.bytes.count) < 12, "colours kept through CMYK")
    }
}
