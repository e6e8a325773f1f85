import AssetsKit
import CVipsShim
import Foundation
import ImageMetadata
@testable import ImagePipeline
import SyntheticMedia
import Testing
import TestSupport

/// Fast thumbnails at 1/8 scale decode with our DC-only decoder (`CVipsShim/DCDecode.c`) where
/// it takes the file, libjpeg-turbo otherwise. Its 1/8 image must be libjpeg-turbo's (the
/// tolerance is 1 per sample; with libjpeg-turbo 2.1.5 it is identical), files it does not take
/// must give the thumbnail they gave before, and damaged files must never crash it.
///
/// Its tests block their thread (external tools, large synthetic photos), so each runs its work
/// off the cooperative pool (``offCooperativePool(_:)``), where it cannot keep async tests from
/// resuming.
@Suite("DC decoder: libjpeg-turbo's 1/8 image for fast thumbnails")
struct DCDecoderTests {
    let renderer = ImageRenderer()

    /// A whole 1/8-scale decode.
    struct Eighth {
        var width, height, bands: Int
        var bytes: [UInt8]
    }

    /// The 1/8 image of `file` by the DC decoder (nil when it leaves the file to libjpeg) or by libjpeg.
    static func eighth(_ file: URL, dcDecoder: Bool) throws -> Eighth? {
        var pixels: UnsafeMutableRawPointer?
        var length = 0, width: Int32 = 0, height: Int32 = 0, bands: Int32 = 0
        // Inside the renderer's libvips error scope, as every libvips call must be: libjpeg's
        // complaints about damaged files land in libvips' one error buffer, where a concurrent
        // failing render (ConcurrentErrorTests) would otherwise read them as its own.
        let result = try VipsErrorScope.run {
            cvips_jpeg_eighth_scale(file.path, dcDecoder ? 1 : 0, &pixels, &length, &width, &height, &bands)
        }
        defer { cvips_free(pixels) }
        if result == 1 { return nil }
        guard result == 0, let pixels else {
            throw ImagePipelineError.undecodable(file: file.path, reason: "1/8 decode failed")
        }
        return Eighth(width: Int(width), height: Int(height), bands: Int(bands),
                      bytes: Array(UnsafeRawBufferPointer(start: pixels, count: length)))
    }

    /// The largest difference between the two decoders' 1/8 images of `file`, which the DC decoder must take.
    static func largestDifference(_ file: URL) throws -> Int {
        let ours = try #require(try eighth(file, dcDecoder: true), "the DC decoder left \(file.lastPathComponent) to libjpeg")
        let libjpeg = try #require(try eighth(file, dcDecoder: false))
        #expect(ours.width == libjpeg.width && ours.height == libjpeg.height && ours.bands == libjpeg.bands,
                "\(file.lastPathComponent): \(ours.width)x\(ours.height)x\(ours.bands), libjpeg \(libjpeg.width)x\(libjpeg.height)x\(libjpeg.bands)")
        guard ours.bytes.count == libjpeg.bytes.count else { return 255 }
        return zip(ours.bytes, libjpeg.bytes).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
    }

    /// Runs one of libjpeg-turbo's tools (scripts/install-dependencies.sh installs them).
    static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ImagePipelineError.undecodable(file: tool, reason: "\(tool) \(arguments.joined(separator: " ")) failed")
        }
    }

    static func scratchFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dc-decoder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// An odd-sized photo (1203x907: partial blocks and MCUs at the edges) as a PPM for cjpeg.
    static func photoPPM(in folder: URL) throws -> URL {
        let jpeg = folder.appendingPathComponent("source.jpg"), ppm = folder.appendingPathComponent("source.ppm")
        try SyntheticPhoto(size: PixelSize(width: 1203, height: 907), seed: 5, label: "D").encoded(as: .jpeg, quality: 95).write(to: jpeg)
        try run("djpeg", ["-pnm", "-outfile", ppm.path, jpeg.path])
        return ppm
    }

    /// cjpeg settings covering the sampling layouts, grey, restart intervals (every MCU, every
    /// third MCU row), optimised tables and long codes (quality 100).
    static let cjpegSettings: [[String]] = [
        ["-sample", "1x1"], ["-sample", "2x1"], ["-sample", "1x2"], ["-sample", "2x2"], ["-grayscale"],
        ["-sample", "2x2", "-restart", "1B"], ["-sample", "1x1", "-restart", "3"], ["-sample", "2x2", "-optimize"],
        ["-sample", "1x1", "-quality", "100"], ["-sample", "2x2", "-quality", "40"],
    ]

    @Test("sampling layouts, grey, restart intervals: the same 1/8 image as libjpeg-turbo (within 1)", arguments: cjpegSettings)
    func encodings(_ settings: [String]) async throws {
        try await offCooperativePool {
            let folder = try Self.scratchFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let ppm = try Self.photoPPM(in: folder), file = folder.appendingPathComponent("variant.jpg")
            try Self.run("cjpeg", ["-quality", "90"] + settings + ["-outfile", file.path, ppm.path])
            #expect(try Self.largestDifference(file) <= 1, "cjpeg \(settings.joined(separator: " "))")
        }
    }

    @Test("camera and phone JPEGs, as they are and with a restart marker after every MCU: libjpeg-turbo's 1/8 image",
          arguments: Corpus.files(in: "A_camera_exif") { $0.pathExtension.lowercased() == "jpg" }
              + Corpus.files(in: "B_orientation") { $0.pathExtension.lowercased() == "jpg" })
    func cameraFiles(_ file: URL) async throws {
        try await offCooperativePool {
            #expect(try Self.largestDifference(file) <= 1, "\(file.lastPathComponent)")
            let folder = try Self.scratchFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let restarted = folder.appendingPathComponent(file.lastPathComponent)
            try Self.run("jpegtran", ["-copy", "all", "-restart", "1", "-outfile", restarted.path, file.path])
            #expect(try Self.largestDifference(restarted) <= 1, "\(file.lastPathComponent) with restart markers")
        }
    }

    /// A 3200x2400 photo: a 256x256 fill shrinks it by 9.4, so the fast thumbnail decodes at 1/8.
    static func largePhoto(in folder: URL, orientation: Int = 1) throws -> URL {
        let jpeg = try SyntheticPhoto(size: PixelSize(width: 3200, height: 2400), seed: 3, label: "R", orientation: orientation)
            .encoded(as: .jpeg, quality: 90)
        let url = folder.appendingPathComponent("large-\(orientation).jpg")
        try ExifWriter.inserting(ExifMetadata(orientation: orientation), thumbnail: nil, into: jpeg).write(to: url)
        return url
    }

    func fastThumbnail(_ file: URL, mode: ContentMode = .fill) throws -> RawPixels {
        let size = mode == .fill ? PixelSize(width: 256, height: 256) : PixelSize(width: 300, height: 300)
        let result = try renderer.render(file, size: size, mode: mode, format: .jpeg, quality: 95, resizeMode: .fast)
        return try renderer.pixels(of: result.data, name: file.path)
    }

    /// jpegtran rewrites the entropy coding without touching a coefficient, so libjpeg's decode
    /// of the rewritten file (the fallback) is the DC decoder's decode of the original.
    @Test("progressive and arithmetic-coded files go to libjpeg and give the same thumbnail as the baseline file",
          arguments: [["-progressive"], ["-arithmetic"]])
    func fallback(_ rewrite: [String]) async throws {
        try await offCooperativePool {
            let folder = try Self.scratchFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let baseline = try Self.largePhoto(in: folder), rewritten = folder.appendingPathComponent("rewritten.jpg")
            try Self.run("jpegtran", rewrite + ["-copy", "all", "-outfile", rewritten.path, baseline.path])
            #expect(try Self.eighth(baseline, dcDecoder: true) != nil)
            #expect(try Self.eighth(rewritten, dcDecoder: true) == nil)
            for mode in [ContentMode.fill, .fit] {
                #expect(try fastThumbnail(rewritten, mode: mode) == fastThumbnail(baseline, mode: mode), "\(rewrite) \(mode)")
            }
        }
    }

    @Test("12-bit and arithmetic-coded corpus files are left to libjpeg and libvips: a thumbnail or an error naming the file",
          arguments: ["E_formats/ljt__testimgari.jpg", "E_formats/ljt__testorig12.jpg"])
    func leftToLibjpeg(_ name: String) async throws {
        try await offCooperativePool {
            let file = Corpus.file(name)
            #expect((try? Self.eighth(file, dcDecoder: true)) == nil)
            do {
                let thumbnail = try renderer.render(file, size: PixelSize(width: 16, height: 16), mode: .fill, format: .jpeg,
                                                    quality: 90, resizeMode: .fast)
                #expect(thumbnail.pixelSize == PixelSize(width: 16, height: 16))
            } catch let error as ImagePipelineError {
                #expect(error.description.contains(file.lastPathComponent), "\(error)")
            }
        }
    }

    @Test("a CMYK JPEG is left to libvips and still gets its thumbnail")
    func cmyk() async throws {
        try await offCooperativePool {
            let folder = try Self.scratchFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("cmyk.jpg")
            try Self.run("convert", [try Self.largePhoto(in: folder).path, "-colorspace", "CMYK", "-quality", "90", file.path])
            let thumbnail = try fastThumbnail(file)
            #expect(thumbnail.width == 256 && thumbnail.height == 256)
        }
    }

    @Test("fast thumbnails decoded at 1/8 are upright for every EXIF orientation", arguments: 1...8)
    func orientations(_ orientation: Int) async throws {
        try await offCooperativePool {
            let folder = try Self.scratchFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let upright = try fastThumbnail(try Self.largePhoto(in: folder))
            let turned = try fastThumbnail(try Self.largePhoto(in: folder, orientation: orientation))
            #expect(turned.width == 256 && turned.height == 256)
            // The same upright picture, decoded from differently turned blocks: far nearer to the
            // upright thumbnail than to it mirrored.
            var mirrored = upright
            for y in 0..<upright.height {
                for x in 0..<upright.width {
                    for band in 0..<upright.bands {
                        mirrored.bytes[(y * upright.width + x) * upright.bands + band] =
                            upright.bytes[(y * upright.width + upright.width - 1 - x) * upright.bands + band]
                    }
                }
            }
            let same = Self.meanDifference(upright, turned), wrong = Self.meanDifference(mirrored, turned)
            #expect(same < 6 && same * 3 < wrong, "orientation \(orientation): \(same) from upright, \(wrong) from mirrored")
        }
    }

    static func meanDifference(_ a: RawPixels, _ b: RawPixels) -> Double {
        Double(zip(a.bytes, b.bytes).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(max(1, a.bytes.count))
    }

    /// Truncations and overwritten bytes all through a photo's entropy-coded data (a fixed
    /// sequence), and the hostile corpus. Whenever the DC decoder takes a damaged file, libjpeg
    /// must decode it to the same image without a warning; the fast thumbnail is an answer of
    /// the box's size or an error naming the file.
    @Test("damaged and hostile files: never a crash; what the DC decoder takes, libjpeg decodes the same")
    func damaged() async throws {
        try await offCooperativePool {
            let folder = try Self.scratchFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let original = try [UInt8](Data(contentsOf: try Self.largePhoto(in: folder)))
            var generator = SeededGenerator(seed: 17)
            var files: [URL] = Corpus.files(in: "D_hostile") { $0.pathExtension.lowercased() == "jpg" }
            for index in 0..<24 {
                var bytes = original
                if index % 3 == 0 {
                    bytes.removeLast(Int.random(in: 2..<(bytes.count / 2), using: &generator))
                } else {
                    for _ in 0..<(1 + index % 4) {
                        bytes[Int.random(in: 2000..<bytes.count, using: &generator)] = index % 3 == 1 ? 0xFF : UInt8.random(in: 0...255, using: &generator)
                    }
                }
                let file = folder.appendingPathComponent("damaged-\(index).jpg")
                try Data(bytes).write(to: file)
                files.append(file)
            }
            for file in files {
                if let ours = try? Self.eighth(file, dcDecoder: true) {
                    let libjpeg = try? Self.eighth(file, dcDecoder: false)
                    let same = libjpeg?.bytes == ours.bytes
                    #expect(same, "\(file.lastPathComponent): libjpeg differs or fails")
                }
                do {
                    let thumbnail = try fastThumbnail(file)
                    #expect(thumbnail.width <= 256 && thumbnail.height <= 256)
                } catch let error as ImagePipelineError {
                    #expect(error.description.contains(file.lastPathComponent), "\(error)")
                }
            }
        }
    }
}
