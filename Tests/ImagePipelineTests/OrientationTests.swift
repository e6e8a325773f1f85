import AssetsKit
import Foundation
import ImagePipeline
import Testing
import TestSupport

@Suite("EXIF orientation: every output comes out upright")
struct OrientationTests {
    let renderer = ImageRenderer()

    static let letterF = Corpus.files(in: "B_orientation") { $0.lastPathComponent.hasPrefix("goexif__f") }

    /// The upright F of the goexif set is 40x80: a bar down the left, a bar across the top,
    /// a shorter bar across the middle, nothing at the lower right.
    func expectUprightF(_ pixels: RawPixels, _ file: URL) {
        #expect(pixels.width == 40 && pixels.height == 80, "\(file.lastPathComponent) came out \(pixels.width)x\(pixels.height)")
        let dark = 100.0, light = 160.0
        #expect(pixels.meanBrightness(x: 1, y: 1, width: 6, height: 6) < dark, "top-left of the F")
        #expect(pixels.meanBrightness(x: 32, y: 1, width: 6, height: 6) < dark, "top-right end of the top bar")
        #expect(pixels.meanBrightness(x: 1, y: 66, width: 6, height: 12) < dark, "foot of the stem")
        #expect(pixels.meanBrightness(x: 28, y: 60, width: 10, height: 18) > light, "empty lower right")
        #expect(pixels.meanBrightness(x: 30, y: 36, width: 8, height: 4) > light, "right of the middle bar")
    }

    @Test("the letter F reads as an F after a thumbnail", arguments: letterF)
    func thumbnailIsUpright(_ file: URL) async throws {
        try await offCooperativePool {
            let result = try renderer.render(file, size: PixelSize(width: 256, height: 256), mode: .fit, format: .jpeg, quality: 95)
            #expect(result.pixelSize == PixelSize(width: 40, height: 80))
            expectUprightF(try renderer.pixels(of: result.data, name: file.path), file)
        }
    }

    @Test("the letter F reads as an F at full resolution", arguments: letterF)
    func fullResolutionIsUpright(_ file: URL) async throws {
        try await offCooperativePool {
            let result = try renderer.fullResolution(file, format: .jpeg, quality: 95)
            expectUprightF(try renderer.pixels(of: result.data, name: file.path), file)
        }
    }

    @Test("a JPEG turned by a given orientation (the embedded-thumbnail path) reads as an F, in JPEG and WebP",
          arguments: letterF)
    func uprightThumbnail(_ file: URL) async throws {
        try await offCooperativePool {
            let orientation = try #require(Corpus.exifField("Orientation", of: file).flatMap(Int.init))
            for format in [ImageFormat.jpeg, .webp] {
                let result = try renderer.uprightThumbnail(jpeg: Data(contentsOf: file), orientation: orientation,
                                                           name: file.path, format: format, quality: 95)
                #expect(result.isDegraded && result.source == .embeddedThumbnail && result.format == format)
                #expect(result.pixelSize == PixelSize(width: 40, height: 80))
                expectUprightF(try renderer.pixels(of: result.data, name: file.path), file)
            }
        }
    }

    @Test("the header reports the orientation and the upright size", arguments: letterF)
    func headerSize(_ file: URL) async throws {
        try await offCooperativePool {
            let header = try renderer.header(of: file)
            let noted = try #require(Corpus.exifField("Orientation", of: file).flatMap(Int.init))
            #expect(header.orientation == noted)
            #expect(header.uprightSize == PixelSize(width: 40, height: 80))
        }
    }

    @Test("hopper stored with orientation 3 and 6 (JPEG, WebP) comes out as the same upright picture")
    func hopperAgrees() async throws {
        try await offCooperativePool {
            let names = ["pillow__hopper_orientation_3.jpg", "pillow__hopper_orientation_6.jpg", "pillow__hopper_orientation_6.webp"]
            let images = try names.map { name in
                let file = Corpus.file("B_orientation/\(name)")
                let result = try renderer.render(file, size: PixelSize(width: 128, height: 128), mode: .fit, format: .jpeg, quality: 95)
                return try renderer.pixels(of: result.data, name: name)
            }
            #expect(meanDifference(images[0], images[1]) < 12)
            #expect(meanDifference(images[1], images[2]) < 12)
            let stored = try renderer.pixels(of: Data(contentsOf: Corpus.file("B_orientation/\(names[1])")), name: names[1])
            #expect(meanDifference(images[1], stored) > 20, "the stored pixels are turned, so an unrotated output would differ")
        }
    }

    @Test("a PNG whose orientation sits in ImageMagick's raw EXIF text chunk is turned upright")
    func pngWithTextChunkExif() async throws {
        try await offCooperativePool {
            let file = Corpus.file("B_orientation/pillow__exif_imagemagick_orientation.png")
            #expect(try renderer.header(of: file).orientation == 3)
            let stored = try renderer.pixels(of: Data(contentsOf: file), name: file.path)
            let result = try renderer.render(file, size: PixelSize(width: 512, height: 512), mode: .fit, format: .jpeg, quality: 95)
            let upright = try renderer.pixels(of: result.data, name: file.path)
            #expect(meanDifference(upright, stored.rotatedHalfTurn()) < 6)
            #expect(meanDifference(upright, stored) > 10)
        }
    }

    func meanDifference(_ a: RawPixels, _ b: RawPixels) -> Double {
        guard a.width == b.width, a.height == b.height, a.bands == b.bands else { return .infinity }
        let total = zip(a.bytes, b.bytes).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        return Double(total) / Double(a.bytes.count)
    }
}

extension RawPixels {
    func rotatedHalfTurn() -> RawPixels {
        var turned = bytes
        let pixelCount = width * height
        for index in 0..<pixelCount {
            let source = (pixelCount - 1 - index) * bands
            for band in 0..<bands { turned[index * bands + band] = bytes[source + band] }
        }
        return RawPixels(width: width, height: height, bands: bands, bytes: turned)
    }
}
