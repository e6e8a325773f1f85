import CVipsShim
import Foundation
import ImagePipeline
import Testing
import TestSupport

/// Thumbnails already in memory are encoded by libjpeg-turbo directly instead of libvips'
/// jpegsave pipeline (`cvips_encode_memory_jpeg`): the JPEG must decode to the very pixels
/// libvips' own encoding gives, at its subsampling for the quality, grey included.
@Suite("Direct JPEG encoding of thumbnails: libvips' jpegsave, without its pipeline")
struct DirectJPEGEncodeTests {
    let renderer = ImageRenderer()

    /// Pixels of a real photo, as RGB or made grey.
    private func photoPixels(grey: Bool) throws -> RawPixels {
        let photo = try #require(Corpus.files(in: "A_camera_exif") { $0.pathExtension.lowercased() == "jpg" }.sorted { $0.path < $1.path }.first)
        let pixels = try renderer.pixels(of: Data(contentsOf: photo), name: photo.lastPathComponent)
        try #require(pixels.bands == 3)
        guard grey else { return pixels }
        var luma: [UInt8] = []
        for index in stride(from: 0, to: pixels.bytes.count, by: 3) {
            let red = Int(pixels.bytes[index]) * 299, green = Int(pixels.bytes[index + 1]) * 587, blue = Int(pixels.bytes[index + 2]) * 114
            luma.append(UInt8((red + green + blue) / 1000))
        }
        return RawPixels(width: pixels.width, height: pixels.height, bands: 1, bytes: luma)
    }

    /// `pixels` encoded at `quality`, directly (`interlace` 0) or by libvips (progressive, which
    /// only changes the entropy coding: it decodes to the same pixels as libvips' baseline).
    private func encoded(_ pixels: RawPixels, quality: Int, byLibvips: Bool) throws -> Data {
        // In the renderer's libvips error scope, as every libvips call must be (VipsErrorScope).
        try VipsErrorScope.run {
            var image: OpaquePointer?
            let made = pixels.bytes.withUnsafeBytes { cvips_from_pixels($0.baseAddress, Int32(pixels.width), Int32(pixels.height), Int32(pixels.bands), &image) }
            try #require(made == 0)
            defer { cvips_unref(image) }
            var buffer: UnsafeMutableRawPointer?
            var length = 0
            try #require(cvips_save_jpeg(image, Int32(quality), byLibvips ? 1 : 0, &buffer, &length) == 0)
            defer { cvips_free(buffer) }
            let saved = Data(bytes: try #require(buffer), count: length)
            if !byLibvips {
                // cvips_save_jpeg took the direct encoder: the same bytes.
                var direct: UnsafeMutableRawPointer?
                var directLength = 0
                try #require(cvips_encode_memory_jpeg(image, Int32(quality), &direct, &directLength) == 0)
                defer { cvips_free(direct) }
                #expect(Data(bytes: try #require(direct), count: directLength) == saved)
            }
            return saved
        }
    }

    @Test("the same decoded pixels as libvips' jpegsave, RGB and grey, below and above quality 90",
          arguments: [(80, false), (95, false), (80, true)])
    func samePixels(quality: Int, grey: Bool) async throws {
        try await offCooperativePool {
            let pixels = try photoPixels(grey: grey)
            let direct = try encoded(pixels, quality: quality, byLibvips: false)
            let libvips = try encoded(pixels, quality: quality, byLibvips: true)
            // A baseline file (SOF0), where libvips' was asked for a progressive one (SOF2).
            #expect(direct.firstRange(of: Data([0xFF, 0xC0])) != nil && direct.firstRange(of: Data([0xFF, 0xC2])) == nil)
            #expect(libvips.firstRange(of: Data([0xFF, 0xC2])) != nil)
            let ours = try renderer.pixels(of: direct, name: "direct.jpg"), theirs = try renderer.pixels(of: libvips, name: "libvips.jpg")
            #expect(ours.width == pixels.width && ours.height == pixels.height && ours.bands == pixels.bands)
            #expect(theirs.width == ours.width && theirs.bands == ours.bands)
            let largest = zip(ours.bytes, theirs.bytes).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(largest <= 1, "largest difference \(largest)")
        }
    }

    @Test("only pixels in memory are encoded directly; a lazily decoded image goes to libvips")
    func onlyMemoryImages() async throws {
        try await offCooperativePool {
            try VipsErrorScope.run {
                let pixels = try photoPixels(grey: false) // starts libvips before it is called directly
                let photo = try #require(Corpus.files(in: "A_camera_exif") { $0.pathExtension.lowercased() == "jpg" }.first)
                let bytes = try Data(contentsOf: photo)
                var lazy: OpaquePointer?
                try #require(bytes.withUnsafeBytes { cvips_load_buffer($0.baseAddress, $0.count, 0, &lazy) } == 0)
                defer { cvips_unref(lazy) }
                var buffer: UnsafeMutableRawPointer?
                var length = 0
                #expect(cvips_encode_memory_jpeg(lazy, 80, &buffer, &length) == 1)
                #expect(buffer == nil)
                var image: OpaquePointer?
                _ = pixels.bytes.withUnsafeBytes { cvips_from_pixels($0.baseAddress, Int32(pixels.width), Int32(pixels.height), 3, &image) }
                defer { cvips_unref(image) }
                #expect(cvips_encode_memory_jpeg(image, 80, &buffer, &length) == 0)
                #expect(length > 0)
                cvips_free(buffer)
            }
        }
    }
}
