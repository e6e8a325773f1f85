import AssetsKit
import CVipsShim
import Foundation
@testable import ImagePipeline
import SyntheticMedia
import Testing
import TestSupport

@Suite("Grid HEIC (a camera's large photo) decoded one tile at a time: libvips' size, orientation and pixels")
struct HEIFGridTests {
    let renderer = ImageRenderer()

    /// A grid's transformations: quarter turns anticlockwise (irot), then a mirror axis (imir).
    struct Transform: CustomTestStringConvertible, Sendable {
        var rotation: Int
        var mirrorAxis: Int?
        var testDescription: String { "irot \(rotation)" + (mirrorAxis.map { ", imir \($0)" } ?? "") }
    }

    static let transforms = [
        Transform(rotation: 0), Transform(rotation: 1), Transform(rotation: 2), Transform(rotation: 3),
        Transform(rotation: 0, mirrorAxis: 0), Transform(rotation: 0, mirrorAxis: 1),
        Transform(rotation: 1, mirrorAxis: 0), Transform(rotation: 3, mirrorAxis: 1),
    ]

    /// A 700x500 photo stored as 3x2 tiles of 256 (the right and bottom ones partly outside
    /// the picture) with `transform`, in a folder of its own.
    func tiledHEIC(_ transform: Transform = Transform(rotation: 0)) throws -> (file: URL, folder: URL) {
        let folder = TestSources.temporaryDirectory()
        let file = folder.appendingPathComponent("tiled.heic")
        try SyntheticPhoto(size: PixelSize(width: 700, height: 500), seed: 5, label: "F")
            .encodedAsTiledHEIC(tileSize: 256, quality: 90, rotation: transform.rotation, mirrorAxis: transform.mirrorAxis)
            .write(to: file)
        return (file, folder)
    }

    // Each direct libvips call runs in the renderer's error scope, as every one in the process
    // must (see VipsErrorScope): libheif's probes leave text in libvips' one error buffer.

    /// libvips' own thumbnail of `file` (heifload: libheif decodes the whole grid), as pixels.
    func libvipsThumbnail(_ file: URL, _ box: PixelSize, crop: Bool) throws -> RawPixels {
        try VipsErrorScope.run {
            var image: OpaquePointer?
            try #require(cvips_thumbnail_file(file.path, Int32(box.width), Int32(box.height), crop ? 1 : 0, 0, &image) == 0)
            return try pixels(of: VipsImageHandle(try #require(image)))
        }
    }

    /// The pixels of an image libvips has not computed yet.
    func pixels(of image: VipsImageHandle) throws -> RawPixels {
        try VipsErrorScope.run {
            var memory: UnsafeMutableRawPointer?
            var length = 0
            var width: Int32 = 0, height: Int32 = 0, bands: Int32 = 0
            try #require(cvips_to_srgb8(image.pointer, &memory, &length, &width, &height, &bands) == 0)
            defer { cvips_free(memory) }
            return RawPixels(width: Int(width), height: Int(height), bands: Int(bands),
                             bytes: [UInt8](UnsafeRawBufferPointer(start: memory, count: length)))
        }
    }

    /// The renderer's grid thumbnail of `file`, not computed yet (`nil`: not a grid image).
    func gridThumbnail(_ file: URL, box: PixelSize, crop: Bool) throws -> VipsImageHandle? {
        try VipsErrorScope.run { try renderer.heifGridThumbnail(file, box: box, crop: crop) }
    }

    @Test("a thumbnail decoded tile by tile has libvips' size, orientation and pixels", arguments: transforms)
    func thumbnailMatchesLibvips(_ transform: Transform) throws {
        let (file, folder) = try tiledHEIC(transform)
        defer { try? FileManager.default.removeItem(at: folder) }
        let box = PixelSize(width: 200, height: 200)
        let tiled = try #require(try gridThumbnail(file, box: box, crop: false), "the grid path takes the file")
        let ours = try pixels(of: tiled)
        let reference = try libvipsThumbnail(file, box, crop: false)
        let upright = transform.rotation % 2 == 1 ? PixelSize(width: 143, height: 200) : PixelSize(width: 200, height: 143)
        #expect(PixelSize(width: ours.width, height: ours.height) == upright)
        #expect(PixelSize(width: reference.width, height: reference.height) == upright)
        #expect(ours.meanDifference(from: reference) < 1.5)
        for (x, y) in [(10, 10), (ours.width - 10, 20), (ours.width / 2, ours.height / 2), (20, ours.height - 10)] {
            #expect(ours.difference(from: reference, x: x, y: y) <= 16, "pixel (\(x), \(y))")
        }
    }

    @Test("a fill is libvips' centre crop of the same size, through the renderer too")
    func fillMatchesLibvips() throws {
        let (file, folder) = try tiledHEIC(Transform(rotation: 1))
        defer { try? FileManager.default.removeItem(at: folder) }
        let box = PixelSize(width: 128, height: 96)
        #expect(try renderer.render(file, size: box, mode: .fill, format: .jpeg, quality: 80).pixelSize == box)
        let ours = try pixels(of: try #require(try gridThumbnail(file, box: box, crop: true)))
        #expect(ours.meanDifference(from: try libvipsThumbnail(file, box, crop: true)) < 1.5)
    }

    @Test("the full-size JPEG, encoded a row of tiles at a time, is the whole decode upright", arguments: [transforms[0], transforms[1], transforms[7]])
    func fullResolutionMatchesWholeDecode(_ transform: Transform) throws {
        let (file, folder) = try tiledHEIC(transform)
        defer { try? FileManager.default.removeItem(at: folder) }
        let full = try renderer.fullResolution(file, format: .jpeg, quality: 95)
        #expect(full.source == .fullResolution)
        #expect(full.pixelSize == (transform.rotation % 2 == 1 ? PixelSize(width: 500, height: 700) : PixelSize(width: 700, height: 500)))
        let ours = try renderer.pixels(of: full.data, name: "ours")
        let whole = try renderer.pixels(of: try Data(contentsOf: file), name: "libheif")
        #expect(ours.meanDifference(from: whole) < 3)
    }

    @Test("a HEIC of one image is left to libvips, and renders as before")
    func singleImageLeftToLibvips() throws {
        let file = Corpus.file("E_formats/exiv2__Stonehenge.heic")
        #expect(try gridThumbnail(file, box: PixelSize(width: 64, height: 64), crop: false) == nil)
        #expect(try renderer.render(file, size: PixelSize(width: 64, height: 64), mode: .fit, format: .jpeg, quality: 80).pixelSize
            == PixelSize(width: 64, height: 43))
    }

    @Test("a grid HEIC cut short in its tiles' data is an error naming the file, not a crash")
    func truncatedTiles() throws {
        let (file, folder) = try tiledHEIC()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = try Data(contentsOf: file)
        try bytes.prefix(bytes.count * 2 / 3).write(to: file)
        #expect(throws: ImagePipelineError.self) {
            try renderer.render(file, size: PixelSize(width: 100, height: 100), mode: .fit, format: .jpeg, quality: 80)
        }
        #expect(throws: ImagePipelineError.self) { try renderer.fullResolution(file, format: .jpeg, quality: 80) }
    }
}
