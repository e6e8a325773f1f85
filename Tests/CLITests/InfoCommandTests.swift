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
}
