import Foundation
import Testing
import TestSupport

@Suite("assets-picker info on the shared corpus")
struct InfoCommandTests {
    static let sample = "A_camera_exif/goexif__sample1.jpg"

    /// The UUID in a legacy `assets-library://asset/asset.JPG?id=UUID&ext=JPG` id.
    static func uuid(inLegacyID id: String) throws -> String {
        let components = try #require(URLComponents(string: id))
        #expect(components.scheme == "assets-library")
        let text = try #require(components.queryItems?.first { $0.name == "id" }?.value)
        return try #require(UUID(uuidString: text)).uuidString
    }

    @Test("info --asset <legacy id> of goexif__sample1.jpg: GPS, camera, EXIF date, size, local identifier, original path")
    func sampleInfo() async throws {
        let id = try await CorpusLibrary.assetID(of: Self.sample)
        let result = try await CorpusLibrary.run("info", ["--asset", id])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderrText.isEmpty, "\(result.stderrText)")
        let info = try result.json()

        #expect(try info.string("id") == id)
        #expect(try info.string("filename") == "goexif__sample1.jpg")
        let location = try info.object("location")
        #expect(abs(try location.double("latitude") - 39.91556) < 0.0001)
        #expect(abs(try location.double("longitude") - 116.39083) < 0.0001)
        #expect(try info.object("camera").string("model") == "NIKON D2H")
        #expect(try info.string("creationDate") == "2003-11-23T18:07:37Z")
        #expect(try info.int("pixelWidth") == 500)
        #expect(try info.int("pixelHeight") == 375)
        #expect(try info.string("localIdentifier") == "\(Self.uuid(inLegacyID: id))/L0/001")
        #expect(try info.string("originalPath") == Corpus.file(Self.sample).standardizedFileURL.path)
        #expect(try info.string("contentType") == "image/jpeg")
    }

    @Test("info --asset <UUID/L0/001> finds the same asset as its legacy id")
    func localIdentifierLookup() async throws {
        let legacy = try await CorpusLibrary.assetID(of: Self.sample)
        let byLegacy = try await CorpusLibrary.run("info", ["--asset", legacy])
        let local = try byLegacy.json().string("localIdentifier")
        let byLocal = try await CorpusLibrary.run("info", ["--asset", local])
        #expect(byLocal.status == 0, "\(byLocal)")
        let info = try byLocal.json()
        #expect(try info.string("localIdentifier") == local)
        #expect(try info.string("filename") == "goexif__sample1.jpg")
        #expect(try info.string("id") == legacy, "the library names the asset by its legacy URL either way")
        #expect(byLocal.stdout == byLegacy.stdout, "same asset, same document")
        // The bare UUID, as the picker's and the client's APIs show it, names it too.
        let bare = try #require(local.split(separator: "/").first.map(String.init))
        let byUUID = try await CorpusLibrary.run("info", ["--asset", bare])
        #expect(byUUID.stdout == byLegacy.stdout, "\(byUUID)")
    }

    /// `info` without `--json`, for a corpus file.
    static func text(of relativePath: String) async throws -> [String] {
        let id = try await CorpusLibrary.assetID(of: relativePath)
        let result = try await CLI.run(["info", "--library", CorpusLibrary.path, "--asset", id])
        #expect(result.status == 0, "\(result)")
        return result.stdoutText.split(separator: "\n").map(String.init)
    }

    /// No dictionary, no bare flag, no number with more places than a reader needs.
    static func expectReadable(_ lines: [String]) {
        for line in lines {
            #expect(!line.contains("[") && !line.contains("\"make\"") && !line.contains("isFavorite"), "\(line)")
            #expect(line.range(of: #"\d\.\d{5,}"#, options: .regularExpression) == nil, "rounded: \(line)")
            #expect(line.hasSuffix("."), "a sentence: \(line)")
        }
    }

    @Test("info without --json speaks in sentences with rounded numbers: a camera photo with GPS")
    func sentencesOfAPhoto() async throws {
        let lines = try await Self.text(of: Self.sample)
        Self.expectReadable(lines)
        #expect(lines.first?.hasPrefix("goexif__sample1.jpg is a photo (JPEG), 500 × 375 pixels (0.2 megapixels), ") == true, "\(lines)")
        #expect(lines.first?.hasSuffix(" KB.") == true, "\(lines)")
        #expect(lines.contains("It was taken on 23 November 2003 at 18:07:37 (no time zone recorded), as its EXIF says."), "\(lines)")
        #expect(lines.contains("It was taken with a NIKON D2H, at 39.9156° N, 116.3908° E."), "\(lines)")
        #expect(lines.contains("It is not a favourite and not hidden."), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("Its original is \(Corpus.file(Self.sample).standardizedFileURL.path) (image/jpeg)") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("Its id is assets-library://asset/asset.JPG?id=") && $0.hasSuffix("/L0/001 names it too.") }, "\(lines)")
    }

    @Test("info without --json: a place west of Greenwich with its altitude, and a video's length and frame rate")
    func sentencesOfPlacesAndVideos() async throws {
        let heic = try await Self.text(of: "E_formats/exiv2__Stonehenge.heic")
        Self.expectReadable(heic)
        #expect(heic.contains("It was taken with a NIKON D5300, at 51.1783° N, 1.8266° W, 97 m above sea level."), "\(heic)")
        let video = try await Self.text(of: "E_formats/puremagic__test.mp4")
        Self.expectReadable(video)
        #expect(video.first?.hasPrefix("puremagic__test.mp4 is a video (MP4), 720 × 480 pixels, 1 second long, 29.97 frames a second, ") == true, "\(video)")
        #expect(video.contains { $0.hasPrefix("The file records no date: it is dated by its modification time, ") }, "\(video)")
    }
}
