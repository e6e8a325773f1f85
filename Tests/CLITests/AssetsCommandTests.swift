import Foundation
import Testing
import TestSupport

@Suite("assets-picker assets on the shared corpus")
struct AssetsCommandTests {
    static let assetKeys: Set<String> = ["id", "filename", "mediaType", "pixelWidth", "pixelHeight", "creationDate", "byteSize"]

    @Test("assets --sort oldest --limit 5 --offset 1: the second to sixth oldest assets of the album, every key present")
    func pagedOldestFirst() async throws {
        let album = try await CorpusLibrary.albumID("A_camera_exif")
        let result = try await CorpusLibrary.run("assets", ["--album", album, "--sort", "oldest", "--limit", "5", "--offset", "1"])
        #expect(result.status == 0, "\(result)")
        let document = try result.json()
        #expect(try document.string("album") == album)
        let page = try document.objects("assets")
        try #require(page.count == 5, "\(result)")
        #expect(try document.int("count") == 5)

        for asset in page {
            #expect(Self.assetKeys.isSubset(of: asset.keys), "missing \(Self.assetKeys.subtracting(asset.keys)) in \(asset.raw)")
            #expect(try asset.string("mediaType") == "photo")
            #expect(try asset.int("pixelWidth") > 0 && asset.int("pixelHeight") > 0)
            #expect(try asset.int("byteSize") > 0)
            #expect(!asset.keys.contains("duration"), "a photo has no duration: \(asset.raw)")
        }
        let dates = try page.map { try $0.date("creationDate") }
        #expect(dates == dates.sorted(), "ascending creation dates: \(dates)")

        // The page is the window [1, 6) of the whole album in the same order.
        let all = try await CorpusLibrary.assets(inAlbum: "A_camera_exif", ["--sort", "oldest"])
        #expect(all.count == 15)
        #expect(try page.map { try $0.string("id") } == all[1..<6].map { try $0.string("id") })
        #expect(try all[0].date("creationDate") <= dates[0])
    }

    @Test("assets --media video on E_formats: the four corpus videos with their durations and pixel sizes")
    func videosWithDurations() async throws {
        let videos = try await CorpusLibrary.assets(inAlbum: "E_formats", ["--media", "video"])
        let expected: [String: (duration: Double, width: Int, height: Int)] = [
            "puremagic__test.mp4": (1.0, 720, 480),
            "puremagic__test.mkv": (0.97, 720, 480),
            "puremagic__test.3g2": (1.11, 176, 144),
            "exiftool__QuickTime.mov": (4.97, 320, 240),
        ]
        let byName = try Dictionary(uniqueKeysWithValues: videos.map { (try $0.string("filename"), $0) })
        #expect(Set(byName.keys) == Set(expected.keys))
        for (name, want) in expected {
            guard let video = byName[name] else { continue }
            #expect(Self.assetKeys.isSubset(of: video.keys), "\(video.raw)")
            #expect(try video.string("mediaType") == "video")
            let duration = try video.double("duration")
            #expect(abs(duration - want.duration) <= 0.06, "\(name): duration \(duration), expected about \(want.duration)")
            #expect(try video.int("pixelWidth") == want.width, "\(name)")
            #expect(try video.int("pixelHeight") == want.height, "\(name)")
            _ = try video.date("creationDate")
        }
    }

    @Test("assets --media photo lists no video, and photos plus videos make the whole album")
    func photoFilter() async throws {
        let photos = try await CorpusLibrary.assets(inAlbum: "E_formats", ["--media", "photo"])
        let videos = try await CorpusLibrary.assets(inAlbum: "E_formats", ["--media", "video"])
        let all = try await CorpusLibrary.assets(inAlbum: "E_formats")
        #expect(!photos.isEmpty)
        #expect(try photos.allSatisfy { try $0.string("mediaType") == "photo" })
        #expect(photos.allSatisfy { !$0.keys.contains("duration") })
        let ids = { (assets: [JSONObject]) in Set(try assets.map { try $0.string("id") }) }
        #expect(try ids(photos).isDisjoint(with: ids(videos)))
        #expect(try ids(photos).union(ids(videos)) == ids(all))
    }

    @Test("assets --sort newest is exactly --sort oldest reversed (an album without equal dates)")
    func newestIsReverseOfOldest() async throws {
        let oldest = try await CorpusLibrary.assets(inAlbum: "A_camera_exif", ["--sort", "oldest"])
        let newest = try await CorpusLibrary.assets(inAlbum: "A_camera_exif", ["--sort", "newest"])
        let dates = try oldest.map { try $0.date("creationDate") }
        try #require(Set(dates).count == dates.count, "the album should have no two equal dates, or the order of ties decides")
        #expect(oldest.count == 15)
        #expect(try newest.map { try $0.string("id") } == oldest.reversed().map { try $0.string("id") })
    }

    @Test("assets without --album lists the camera roll: every asset of every folder, newest first by default")
    func defaultIsCameraRoll() async throws {
        let result = try await CorpusLibrary.run("assets")
        #expect(result.status == 0, "\(result)")
        let document = try result.json()
        #expect(try document.string("album") == "camera-roll")
        let assets = try document.objects("assets")
        #expect(try document.int("count") == assets.count)

        let albums = try await CorpusLibrary.run("albums").json().objects("albums")
        let cameraRoll = try #require(albums.first)
        #expect(try assets.count == cameraRoll.int("count"))
        var folderIDs: Set<String> = []
        for title in ["A_camera_exif", "B_orientation", "C_pngsuite", "D_hostile", "E_formats"] {
            folderIDs.formUnion(try await CorpusLibrary.assets(inAlbum: title).map { try $0.string("id") })
        }
        #expect(try Set(assets.map { try $0.string("id") }) == folderIDs)
        let dates = try assets.map { try $0.date("creationDate") }
        #expect(dates == dates.sorted(by: >), "newest first by default")
    }
}
