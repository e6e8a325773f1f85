import AssetsKit
import FolderLibrary
import Foundation
@testable import IndexedLibrary
import Testing

@Suite("The album list does not depend on which backend opened the library")
struct BackendAgreementTests {
    /// A tree with media in the root, nested folders, digit-named folders, empty folders (one
    /// holding only a text file), a hidden folder and a hidden file; no two files share a
    /// capture date, so every key asset is the same file on both backends.
    private static func makeTree(engine: IndexEngine) throws -> TemporaryTree {
        let tree = try TemporaryTree(engine: engine)
        let files = [
            ("A_camera_exif/jhead__sony.jpg", "root.jpg"), ("A_camera_exif/goexif__sample1.jpg", "2019/sample.jpg"),
            ("A_camera_exif/jhead__olympus.jpg", "2019/trip/olympus.jpg"), ("E_formats/puremagic__test.mp4", "2019/trip/day2/clip.mp4"),
            ("A_camera_exif/jhead__canon-300d.jpg", "2019/trip/day2/canon.jpg"), ("E_formats/exiftool__QuickTime.mov", "Imports/2026/11/movie.mov"),
            ("A_camera_exif/jhead__hp.jpg", ".hidden/hp.jpg"), ("A_camera_exif/jhead__fuji-dx10.jpg", "2019/.fuji.jpg"),
        ]
        for (source, destination) in files { try tree.copy(source, to: destination) }
        try FileManager.default.createDirectory(at: tree.url("empty/nested-empty"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: tree.url("notes"), withIntermediateDirectories: true)
        try Data("not media".utf8).write(to: tree.url("notes/readme.txt"))
        return tree
    }

    /// What a person sees of an album list: titles, counts and which file is the poster.
    private struct Row: Equatable, CustomStringConvertible {
        let title: String
        let listedCount: Int?
        let count: Int
        let key: UUID?

        init(_ summary: AlbumSummary, title: String? = nil) {
            self.title = title ?? summary.collection.title
            listedCount = summary.collection.estimatedAssetCount
            count = summary.count
            key = summary.keyAsset?.id.uuid
        }

        var description: String { "\(title) \(listedCount.map(String.init) ?? "-")/\(count) \(key?.uuidString.prefix(8) ?? "none")" }
    }

    /// The camera roll's row (titled by each backend its own way: its counts and poster are
    /// the same) and the folders' rows.
    private static func rows(_ summaries: [AlbumSummary]) throws -> (roll: Row, folders: [Row]) {
        let roll = try #require(summaries.first { $0.collection.kind == .cameraRoll })
        return (Row(roll, title: "camera roll"), summaries.filter { $0.collection.kind == .directory }.map { Row($0) })
    }

    @Test("folders, empty ones included, with the same titles, counts and posters under every media filter", arguments: IndexEngine.allCases)
    func sameAlbumList(_ engine: IndexEngine) async throws {
        let tree = try Self.makeTree(engine: engine)
        defer { tree.remove() }
        let indexed = try await tree.openLibrary()
        try await indexed.scan()
        let folder = FolderLibrary(root: tree.root)
        for filter in MediaFilter.allCases {
            let expected = try Self.rows(try await folder.albumSummaries(filter: filter))
            let listed = try Self.rows(try await indexed.albumSummaries(filter: filter))
            #expect(listed.folders == expected.folders, "\(filter)")
            #expect(listed.roll == expected.roll, "\(filter)")
        }
        let titles = try Self.rows(try await indexed.albumSummaries(filter: .all)).folders.map(\.title)
        #expect(titles == ["library", "2019", "trip", "day2", "Imports", "Imports / 2026", "Imports / 2026 / 11",
                           "empty", "nested-empty", "notes"])
    }
}
