import Foundation
import Testing
import TestSupport

@Suite("assets-picker image on the shared corpus")
struct ImageCommandTests {
    @Test("image --size 300x200 --mode fill: a 300x200 JPEG whose real size is the reported one, after the smaller embedded thumbnail")
    func fillJPEG() async throws {
        let id = try await CorpusLibrary.assetID(of: "A_camera_exif/goexif__sample1.jpg")
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A legal 255-byte name: the temporary file beside it has a short name of its own.
        let out = folder.appendingPathComponent(String(repeating: "x", count: 251) + ".jpg")
        let result = try await CorpusLibrary.run("image", ["--asset", id, "--size", "300x200", "--mode", "fill", "--out", out.path])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderrText.isEmpty, "\(result.stderrText)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [out.lastPathComponent])
        let answer = try result.json()
        #expect(try answer.string("format") == "jpeg")
        #expect(try answer.string("out") == out.path)
        let width = try answer.int("pixelWidth"), height = try answer.int("pixelHeight")
        #expect(width == 300 && height == 200, "fill gives the target size: \(width)x\(height)")

        let degraded = try answer.objects("degradedAnswers")
        #expect(try degraded.map { try $0.string("source") } == ["embeddedThumbnail"])

        let data = try Data(contentsOf: out)
        #expect(data.count == (try answer.int("byteSize")))
        #expect(data.prefix(2) == Data([0xFF, 0xD8]))
        let real = try #require(ImageFileProbe.jpegSize(data))
        #expect(real.width == width && real.height == height, "file is \(real.width)x\(real.height), JSON says \(width)x\(height)")
    }

    @Test("image --format webp writes a RIFF/WEBP file of the reported size")
    func webp() async throws {
        let id = try await CorpusLibrary.assetID(of: "A_camera_exif/goexif__sample1.jpg")
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("x.webp")
        let result = try await CorpusLibrary.run("image", ["--asset", id, "--size", "100x100", "--format", "webp", "--out", out.path])
        #expect(result.status == 0, "\(result)")
        let answer = try result.json()
        #expect(try answer.string("format") == "webp")
        let data = try Data(contentsOf: out)
        #expect(ImageFileProbe.isWebP(data), "starts with \(Array(data.prefix(12)))")
        let real = try #require(ImageFileProbe.webpSize(data))
        #expect(try real.width == answer.int("pixelWidth") && real.height == answer.int("pixelHeight"))
    }

    @Test("image --size full of an EXIF orientation-6 photo stored 205x102 writes it upright, 102x205")
    func fullResolutionIsUpright() async throws {
        let path = "A_camera_exif/goexif__has-lens-info.jpg"
        let stored = try #require(ImageFileProbe.jpegSize(try Data(contentsOf: Corpus.file(path))))
        try #require(stored.width == 205 && stored.height == 102, "the corpus file is stored 205x102")
        let id = try await CorpusLibrary.assetID(of: path)
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("full.jpg")
        let result = try await CorpusLibrary.run("image", ["--asset", id, "--size", "full", "--out", out.path])
        #expect(result.status == 0, "\(result)")
        let answer = try result.json()
        #expect(try answer.string("source") == "fullResolution")
        #expect(try answer.int("pixelWidth") == 102 && answer.int("pixelHeight") == 205)
        #expect(try answer.objects("degradedAnswers").isEmpty, "full resolution skips the thumbnails")
        let real = try #require(ImageFileProbe.jpegSize(try Data(contentsOf: out)))
        #expect(real.width == 102 && real.height == 205, "file is \(real.width)x\(real.height)")

        let info = try await CorpusLibrary.run("info", ["--asset", id]).json()
        #expect(try info.int("orientation") == 6)
        #expect(try info.int("pixelWidth") == 102 && info.int("pixelHeight") == 205, "info reports the upright size too")
    }
}
