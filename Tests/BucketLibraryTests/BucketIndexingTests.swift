import AssetsKit
@testable import BucketLibrary
import Foundation
import IndexedLibrary
import S3Storage
import S3TestSupport
import Testing
import TestSupport

/// A library in a bucket is indexed as the same files in a folder are: the listing, then each
/// object's metadata from ranged reads of its head.
@Suite("indexing a bucket")
struct BucketIndexingTests {
    /// The corpus files the bucket holds, at nested prefixes (folders, so albums).
    static let corpusFiles: [String: String] = {
        var files: [String: String] = [:]
        for file in Corpus.files(in: "A_camera_exif") { files["2019/camera/" + file.lastPathComponent] = "A_camera_exif/" + file.lastPathComponent }
        for name in ["basn2c08.png", "basn6a16.png", "exif2c08.png", "basi0g16.png", "cdfn2c08.png", "ps2n0g08.png"] {
            files["pngs/" + name] = "C_pngsuite/" + name
        }
        for name in ["exiv2__Stonehenge.heic", "pheif__L_exif_xmp_iptc.heic", "pheif__empty_icc.heic", "ximage__yellow_rose.lossy.webp",
                     "pillow__flower.webp", "puremagic__test.mp4", "exiftool__QuickTime.mov", "libtiff__custom_dir_EXIF_GPS.tiff",
                     "giflib__fire.gif", "pillow__sugarshack.mpo"] {
            files["formats/" + name] = "E_formats/" + name
        }
        files["B_orientation.jpg"] = "B_orientation/goexif__f6-exif.jpg"
        files["notes/readme.txt"] = "README.md"
        return files
    }()

    /// The bucket with the corpus files, a video and a large JPEG made here, and hidden objects.
    static func filledBucket(_ purpose: String) async throws -> BucketFixture {
        let fixture = try await BucketFixture.make(purpose)
        var files: [String: Data] = [:]
        for (path, file) in corpusFiles {
            files[path] = file == "README.md" ? Data("not media".utf8) : try Data(contentsOf: Corpus.file(file))
        }
        files["2021/clips/clip.mp4"] = try await BucketFixture.video()
        files["2021/large.jpg"] = try await BucketFixture.largeJPEG()
        files[".hidden/photo.jpg"] = try Data(contentsOf: Corpus.file("A_camera_exif/jhead__sony.jpg"))
        files["2019/.secret.jpg"] = try Data(contentsOf: Corpus.file("A_camera_exif/jhead__sony.jpg"))
        try await fixture.put(files)
        return fixture
    }

    @Test("a bucket indexes to the same assets as the same files in a folder: count, sizes, dates, places, cameras, durations, albums")
    func sameAsAFolder() async throws {
        let fixture = try await Self.filledBucket("same")
        defer { fixture.remove() }
        let store = fixture.store()
        let library = try fixture.library(store)
        let summary = try await library.scan()
        let twin = try await fixture.localTwin()
        let local = try await twin.scan()

        #expect(summary.added == local.added)
        #expect(summary.failed.map(\.path).sorted() == local.failed.map(\.path).sorted())
        let remote = try await library.assetsByPath(), here = try await twin.assetsByPath()
        #expect(remote.count == Self.corpusFiles.count - 1 + 2)
        #expect(Set(remote.keys) == Set(here.keys))
        for (path, asset) in here {
            let other = try #require(remote[path])
            #expect(other.mediaType == asset.mediaType, "\(path)")
            #expect(other.pixelSize == asset.pixelSize, "\(path)")
            #expect(other.creationDate == asset.creationDate, "\(path)")
            #expect(other.creationDateSource == asset.creationDateSource, "\(path)")
            #expect(other.location == asset.location, "\(path)")
            #expect(other.camera == asset.camera, "\(path)")
            #expect(other.orientation == asset.orientation, "\(path)")
            #expect(other.duration == asset.duration, "\(path)")
            #expect(other.framesPerSecond == asset.framesPerSecond, "\(path)")
            #expect(other.format == asset.format, "\(path)")
            #expect(other.hasEmbeddedThumbnail == asset.hasEmbeddedThumbnail, "\(path)")
            #expect(other.byteSize == asset.byteSize, "\(path)")
            #expect(other.id == asset.id, "the same path, the same identifier: \(path)")
        }
        // The top folder's album has the library's name: the prefix's here, the folder's there.
        let albums = try await library.collections().map(\.title), localAlbums = try await twin.collections().map { $0.title == "twin" ? "library" : $0.title }
        #expect(albums == localAlbums, "the folders are the same albums")
        #expect(albums.contains("camera") && albums.contains("clips") && !albums.contains(".hidden"))
        #expect(library.placeDescription == "s3://\(fixture.bucket)/library/")
    }

    @Test("metadata comes from ranged reads of the heads: a large photo and a video whose moov is at its end are not downloaded")
    func headsOnly() async throws {
        let fixture = try await BucketFixture.make("heads")
        defer { fixture.remove() }
        let video = try await BucketFixture.video(seconds: 4)
        let photo = try await BucketFixture.largeJPEG(exifFrom: "A_camera_exif/jhead__gpsinfo.jpg")
        try #require(video.count > 4 * BucketOriginalsStore.headBytes && photo.count > 1 << 20)
        try await fixture.put(["clip.mp4": video, "large.jpg": photo])
        let store = fixture.store()
        let library = try fixture.library(store)
        try await library.scan()
        let statistics = store.readStatistics
        #expect(statistics.objects == 2)
        #expect(statistics.wholeObjects == 0)
        #expect(statistics.ranges <= 4, "the head of each, and the video's moov at its end")
        #expect(statistics.bytes < Int64(video.count + photo.count) / 5, "\(statistics.bytes) bytes read of \(video.count + photo.count)")

        let twin = try await fixture.localTwin()
        try await twin.scan()
        let remote = try await library.assetsByPath(), here = try await twin.assetsByPath()
        for path in ["clip.mp4", "large.jpg"] {
            let asset = try #require(remote[path]), local = try #require(here[path])
            #expect(asset.pixelSize == local.pixelSize && asset.duration == local.duration && asset.creationDate == local.creationDate
                    && asset.location == local.location && asset.framesPerSecond == local.framesPerSecond, "\(path)")
        }
        #expect(remote["large.jpg"]?.location != nil, "the GPS of the EXIF put in it")
        #expect(remote["clip.mp4"]?.duration == 4)
    }

    @Test("more than 1,000 objects in one folder: every listing page is followed")
    func listingPages() async throws {
        let fixture = try await BucketFixture.make("pages")
        defer { fixture.remove() }
        let photo = try Data(contentsOf: Corpus.file("A_camera_exif/jhead__hp.jpg"))
        var files: [String: Data] = [:]
        for index in 0..<1_100 { files[String(format: "roll/IMG_%04d.jpg", index)] = photo }
        for index in 0..<30 { files[String(format: "roll/sub/IMG_%04d.jpg", index)] = photo }
        try await fixture.put(files)
        let store = fixture.store()
        let library = try fixture.library(store)
        let started = ContinuousClock.now
        let summary = try await library.scan()
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        print(String(format: "indexed %d objects on moto in %.1f s: %.0f files/s", summary.added, seconds, Double(summary.added) / seconds))
        #expect(summary.added == 1_130)
        #expect(summary.failed.isEmpty)
        let albums = try await library.albumSummaries(filter: .all)
        #expect(albums.first { $0.collection.title == "roll" }?.count == 1_100)
        #expect(albums.first { $0.collection.title == "sub" }?.count == 30)
    }
}
