import AssetsKit
import Foundation
import Testing

@Suite("Legacy URLs and local identifiers")
struct IdentifierTests {
    let uuid = UUID(uuidString: "9C5EF6C3-0E1C-4F05-B592-CED2203EFE0F")!

    @Test("a legacy URL round-trips through its text")
    func legacyRoundTrip() throws {
        let text = "assets-library://asset/asset.JPG?id=9C5EF6C3-0E1C-4F05-B592-CED2203EFE0F&ext=JPG"
        let url = try #require(LegacyAssetURL(string: text))
        #expect(url.uuid == uuid)
        #expect(url.fileExtension == "JPG")
        #expect(url.description == text)
        #expect(LegacyAssetURL(string: url.description) == url)
    }

    @Test("a local identifier round-trips through its text")
    func localRoundTrip() throws {
        let text = "9C5EF6C3-0E1C-4F05-B592-CED2203EFE0F/L0/001"
        let id = try #require(LocalIdentifier(string: text))
        #expect(id.uuid == uuid)
        #expect(id.description == text)
    }

    @Test("a legacy URL maps to the local identifier with the same UUID, and back")
    func mapping() throws {
        let legacy = LegacyAssetURL(uuid: uuid, fileExtension: "heic")
        #expect(legacy.fileExtension == "HEIC")
        #expect(legacy.localIdentifier.description == "9C5EF6C3-0E1C-4F05-B592-CED2203EFE0F/L0/001")
        #expect(legacy.localIdentifier.legacyURL(fileExtension: "HEIC") == legacy)
        #expect(AssetIdentifier.legacy(legacy).localIdentifier == LocalIdentifier(uuid: uuid))
        #expect(AssetIdentifier(string: legacy.description)?.uuid == AssetIdentifier(string: "\(uuid.uuidString)/L0/001")?.uuid)
    }

    @Test("lower-case parts of a legacy URL are accepted and normalised")
    func legacyCase() throws {
        let url = try #require(LegacyAssetURL(string: "ASSETS-LIBRARY://asset/asset.png?id=9c5ef6c3-0e1c-4f05-b592-ced2203efe0f&ext=png"))
        #expect(url.uuid == uuid)
        #expect(url.description == "assets-library://asset/asset.PNG?id=9C5EF6C3-0E1C-4F05-B592-CED2203EFE0F&ext=PNG")
    }

    @Test("malformed legacy URLs are refused", arguments: [
        "",
        "assets-library://asset/asset.JPG",
        "assets-library://asset/asset.JPG?id=not-a-uuid&ext=JPG",
        "assets-library://asset/asset.JPG?id=9C5EF6C3-0E1C-4F05-B592-CED2203EFE0F",
        "assets-library://group/asset.JPG?id=9C5EF6C3-0E1C-4F05-B592-CED2203EFE0F&ext=JPG",
        "http://asset/asset.JPG?id=9C5EF6C3-0E1C-4F05-B592-CED2203EFE0F&ext=JPG",
        "assets-library://asset/asset.PNG?id=9C5EF6C3-0E1C-4F05-B592-CED2203EFE0F&ext=JPG",
        "assets-library://asset/asset.J/G?id=9C5EF6C3-0E1C-4F05-B592-CED2203EFE0F&ext=J/G",
        "assets-library://asset/asset.JPG?id=9C5EF6C3-0E1C-4F05-B592-CED2203EFE0F&ext=../../etc",
        "assets-library://asset/../../etc/passwd?id=9C5EF6C3-0E1C-4F05-B592-CED2203EFE0F&ext=JPG",
    ])
    func malformedLegacy(_ text: String) {
        #expect(LegacyAssetURL(string: text) == nil)
        #expect(AssetIdentifier(string: text) == nil)
    }

    @Test("malformed local identifiers are refused", arguments: [
        "",
        "9C5EF6C3-0E1C-4F05-B592-CED2203EFE0F",
        "9C5EF6C3-0E1C-4F05-B592-CED2203EFE0F/L0",
        "9C5EF6C3-0E1C-4F05-B592-CED2203EFE0F/L0/001/extra",
        "9C5EF6C3-0E1C-4F05-B592-CED2203EFE0F/L1/002",
        "not-a-uuid/L0/001",
        "../../etc/passwd",
        "%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
    ])
    func malformedLocal(_ text: String) {
        #expect(LocalIdentifier(string: text) == nil)
        #expect(AssetIdentifier(string: text) == nil)
    }

    @Test("an identifier encodes as its string in JSON and decodes back")
    func identifierJSON() throws {
        let id = AssetIdentifier.legacy(LegacyAssetURL(uuid: uuid, fileExtension: "JPG"))
        let data = try JSONEncoder().encode([id])
        #expect(String(decoding: data, as: UTF8.self).contains("assets-library:"))
        #expect(try JSONDecoder().decode([AssetIdentifier].self, from: data) == [id])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([AssetIdentifier].self, from: Data(#"["nope"]"#.utf8)) }
    }
}
