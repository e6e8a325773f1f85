import Foundation
import Testing
import TestSupport

@Suite("assets-picker albums on the shared corpus")
struct AlbumsCommandTests {
    @Test("albums --json: one JSON document, camera roll first, every key, per-folder counts that add up, quiet stderr")
    func albumsJSON() async throws {
        let result = try await CorpusLibrary.run("albums")
        #expect(result.status == 0, "\(result)")
        #expect(result.stderrText.isEmpty, "stderr should be empty (no libvips warnings): \(result.stderrText)")

        let document = try result.json()
        #expect(try document.string("backend") == "folder")
        #expect(try document.string("library") == Corpus.root.standardizedFileURL.path)
        let albums = try document.objects("albums")
        try #require(albums.count >= 2, "\(result)")

        let required: Set<String> = ["id", "title", "kind", "estimatedCount", "count"]
        for album in albums {
            // An empty album has no poster.
            let keys = try album.int("count") == 0 ? required : required.union(["posterAssetId"])
            #expect(keys.isSubset(of: album.keys), "missing \(keys.subtracting(album.keys)) in \(album.raw)")
        }

        let cameraRoll = albums[0]
        #expect(try cameraRoll.string("kind") == "cameraRoll")
        #expect(try cameraRoll.string("title") == "All Photos")
        let folders = Array(albums.dropFirst())
        #expect(try folders.allSatisfy { try $0.string("kind") != "cameraRoll" }, "only one camera roll")

        // One directory album per corpus folder; LICENSES holds no media: an empty album.
        let titles = try folders.map { try $0.string("title") }
        #expect(Set(titles) == ["A_camera_exif", "B_orientation", "C_pngsuite", "D_hostile", "E_formats", "LICENSES"], "\(titles)")
        #expect(Set(try albums.map { try $0.string("id") }).count == albums.count, "album ids are unique")

        let counts = try Dictionary(uniqueKeysWithValues: folders.map { (try $0.string("title"), try $0.int("count")) })
        #expect(counts["A_camera_exif"] == 15)
        #expect(counts["LICENSES"] == 0)
        #expect(counts["A_camera_exif"] == Corpus.files(in: "A_camera_exif").count, "every camera file is readable")
        #expect(try cameraRoll.int("count") == counts.values.reduce(0, +), "camera roll = sum of the folders: \(counts)")
        for album in albums {
            // The estimate counts files, the count only those that could be read.
            #expect(try album.int("count") <= album.int("estimatedCount"), "\(album.raw)")
            #expect(try album.int("count") == 0 || !album.string("posterAssetId").isEmpty)
        }
    }
}
