import Foundation
import NIOCore
@testable import PickerServer
import Testing

@Suite struct AlbumListJSONTests {
    /// Titles come from folder names, which may hold any character a file system allows.
    @Test func writesTheBytesTheEncoderWrites() throws {
        let controls = String(decoding: (0..<0x20).map { UInt8($0) } + [0x7F], as: UTF8.self)
        let albums = [
            AlbumResource(id: "smart:all", title: "All Photos", kind: .cameraRoll, smartKind: .allPhotos, count: 100_000,
                          posterId: UUID(uuidString: "0A1B2C3D-4E5F-6071-8293-A4B5C6D7E8F9")),
            AlbumResource(id: "directory:E621E1F8-C36C-495A-93FC-0C247A3E6E5F", title: #"Quotes " and \ back/slash"#,
                          kind: .directory, smartKind: nil, count: 0, posterId: nil),
            AlbumResource(id: "album:x", title: "Été ☕︎ 📷 \u{2028}", kind: .album, smartKind: nil, count: 7, posterId: UUID()),
            AlbumResource(id: "camera-roll", title: "All Photos", kind: .cameraRoll, smartKind: .allPhotos, count: 3, posterId: nil),
            AlbumResource(id: "directory:y", title: controls, kind: .directory, smartKind: nil, count: -1, posterId: UUID()),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let expected = try encoder.encode(["albums": albums])
        let written = AlbumListJSON.body(albums)
        #expect(String(buffer: written) == String(decoding: expected, as: UTF8.self))
        #expect(try JSONSerialization.jsonObject(with: Data(written.readableBytesView)) is [String: Any])
    }

    @Test func anEmptyListIsAnEmptyArray() {
        #expect(String(buffer: AlbumListJSON.body([])) == #"{"albums":[]}"#)
    }
}
