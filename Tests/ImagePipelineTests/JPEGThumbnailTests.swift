import AssetsKit
import Foundation
import ImageMetadata
import ImagePipeline
import ProcessRunning
import SyntheticMedia
import Testing
import TestSupport

/// JPEG thumbnails are made without a libvips pipeline (libjpeg-turbo's scaled decode, our own
/// Lanczos-3 reduce, orientation and crop); they must stay the picture libvips' own thumbnail
/// makes of the same file.
@Suite("JPEG thumbnails: the same picture as libvips' thumbnail")
struct JPEGThumbnailTests {
    let renderer = ImageRenderer()

    /// Fill and fit boxes, one of them not square, so a swapped width and height shows.
    static let boxes: [(PixelSize, ContentMode)] = [
        (PixelSize(width: 256, height: 256), .fill), (PixelSize(width: 200, height: 120), .fill),
        (PixelSize(width: 300, height: 300), .fit),
    ]

    /// A 1600x1200 (upright) photo stored turned for `orientation`, with it in its EXIF.
    static func photo(orientation: Int, in folder: URL) throws -> URL {
        let jpeg = try SyntheticPhoto(size: PixelSize(width: 1600, height: 1200), seed: 11, label: "J", orientation: orientation)
            .encoded(as: .jpeg, quality: 90)
        let url = folder.appendingPathComponent("photo-\(orientation).jpg")
        try ExifWriter.inserting(ExifMetadata(orientation: orientation), thumbnail: nil, into: jpeg).write(to: url)
        return url
    }

    static func scratchFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("jpeg-thumbnail-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// libvips' thumbnail of the same bytes: shrink-on-load, Lanczos-3, orientation, centre crop.
    func reference(_ file: URL, _ size: PixelSize, _ mode: ContentMode) throws -> RawPixels {
        let result = try renderer.render(data: Data(contentsOf: file), name: file.path, size: size, mode: mode,
                                         format: .jpeg, quality: 95, source: .rendered)
        return try renderer.pixels(of: result.data, name: "reference")
    }

    func ours(_ file: URL, _ size: PixelSize, _ mode: ContentMode, _ resizeMode: ResizeMode) throws -> RawPixels {
        let result = try renderer.render(file, size: size, mode: mode, format: .jpeg, quality: 95, resizeMode: resizeMode)
        let pixels = try renderer.pixels(of: result.data, name: file.path)
        #expect(result.pixelSize == PixelSize(width: pixels.width, height: pixels.height))
        return pixels
    }

    /// The mean absolute difference per byte of two images of the same size and bands.
    func meanDifference(_ a: RawPixels, _ b: RawPixels) -> Double {
        let total = zip(a.bytes, b.bytes).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        return Double(total) / Double(max(1, a.bytes.count))
    }

    /// `exact` stays within `tolerance` (mean per byte) of libvips' thumbnail; `fast` (coarser
    /// decode, fast DCT) close to it.
    func expectMatchesReference(_ file: URL, _ size: PixelSize, _ mode: ContentMode, _ label: String,
                                tolerance: Double = 1.5) throws {
        let expected = try reference(file, size, mode)
        for (resizeMode, limit) in [(ResizeMode.exact, tolerance), (.fast, tolerance + 3)] {
            let got = try ours(file, size, mode, resizeMode)
            #expect(got.width == expected.width && got.height == expected.height && got.bands == expected.bands,
                    "\(label) \(resizeMode) \(mode) \(size): \(got.width)x\(got.height)x\(got.bands), libvips \(expected.width)x\(expected.height)x\(expected.bands)")
            guard got.bytes.count == expected.bytes.count else { continue }
            let difference = meanDifference(got, expected)
            #expect(difference < limit, "\(label) \(resizeMode) \(mode) \(size): mean difference \(difference)")
        }
    }

    @Test("every EXIF orientation: the size and pixels of libvips' thumbnail, fill and fit", arguments: 1...8)
    func orientations(_ orientation: Int) async throws {
        try await offCooperativePool {
            let folder = try Self.scratchFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = try Self.photo(orientation: orientation, in: folder)
            for (size, mode) in Self.boxes {
                try expectMatchesReference(file, size, mode, "orientation \(orientation)")
            }
        }
    }

    @Test("a fill is exactly the box, upright, for every orientation", arguments: 1...8)
    func fillIsExact(_ orientation: Int) async throws {
        try await offCooperativePool {
            let folder = try Self.scratchFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = try Self.photo(orientation: orientation, in: folder)
            for size in [PixelSize(width: 256, height: 256), PixelSize(width: 90, height: 250), PixelSize(width: 333, height: 101)] {
                for resizeMode in [ResizeMode.exact, .fast] {
                    let result = try renderer.render(file, size: size, mode: .fill, format: .jpeg, quality: 80, resizeMode: resizeMode)
                    #expect(result.pixelSize == size, "orientation \(orientation), \(resizeMode)")
                }
            }
        }
    }

    /// Small (64-pixel), detailed thumbnails of real photos: libvips rounds filter positions to a
    /// fraction of a pixel and trims its kernel where ours is exact, which shows more here than
    /// on the smooth synthetic photos (up to ~1.4 before either is encoded; libvips' own C and
    /// vector paths differ by ~0.3), and encoding both as JPEG about doubles it.
    @Test("camera JPEGs (subsampled chroma, odd sizes, colour profiles) match libvips' thumbnail",
          arguments: Corpus.files(in: "A_camera_exif") { $0.pathExtension.lowercased() == "jpg" })
    func cameraFiles(_ file: URL) async throws {
        try await offCooperativePool {
            for (size, mode) in [(PixelSize(width: 64, height: 64), ContentMode.fill), (PixelSize(width: 96, height: 96), .fit)] {
                try expectMatchesReference(file, size, mode, file.lastPathComponent, tolerance: 3.5)
            }
        }
    }

    @Test("damaged entropy data mid-file: libjpeg gives up half-way and libvips decides; an answer of the box's size or an error naming the file")
    func damagedData() async throws {
        try await offCooperativePool {
            let folder = try Self.scratchFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = try Self.photo(orientation: 6, in: folder)
            var bytes = [UInt8](try Data(contentsOf: file))
            for index in stride(from: bytes.count / 2, to: bytes.count / 2 + 400, by: 7) { bytes[index] = index % 2 == 0 ? 0xD9 : 0xFF }
            try Data(bytes).write(to: file)
            for resizeMode in [ResizeMode.exact, .fast] {
                do {
                    let result = try renderer.render(file, size: PixelSize(width: 256, height: 256), mode: .fill, format: .jpeg,
                                                     quality: 80, resizeMode: resizeMode)
                    #expect(result.pixelSize == PixelSize(width: 256, height: 256))
                } catch let error as ImagePipelineError {
                    #expect(error.description.contains(file.lastPathComponent))
                }
            }
        }
    }

    /// vips_thumbnail without import or export profiles leaves an embedded profile alone, and so
    /// do we: a Display P3 photo must come out as libvips' thumbnail of it.
    @Test("greyscale, progressive and Display P3 JPEGs match libvips' thumbnail; greyscale stays one band")
    func greyscaleAndProgressive() async throws {
        let folder = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try Self.photo(orientation: 6, in: folder)
        let vips = ExternalTool("vips", installHint: "install libvips-tools")
        let grey = folder.appendingPathComponent("grey.jpg"), progressive = folder.appendingPathComponent("progressive.jpg")
        let p3 = folder.appendingPathComponent("p3.jpg")
        for (output, arguments) in [(grey, ["colourspace", source.path, grey.path, "b-w"]),
                                    (progressive, ["copy", source.path, progressive.path + "[interlace,Q=90]"]),
                                    (p3, ["icc_transform", source.path, p3.path + "[Q=90]", "p3"])] {
            let made = try await ToolRunner.fixture(vips, arguments: arguments)
            try #require(made.succeeded, "vips \(arguments[0]): \(made.standardError)")
            for (size, mode) in Self.boxes {
                try expectMatchesReference(output, size, mode, output.lastPathComponent)
            }
        }
        #expect(try ours(grey, PixelSize(width: 256, height: 256), .fill, .exact).bands == 1)
    }
}
