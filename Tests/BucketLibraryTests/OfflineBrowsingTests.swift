import AssetsKit
@testable import BucketLibrary
import Foundation
import ImagePipeline
import IndexedLibrary
import S3Storage
import S3TestSupport
import Testing
import TestSupport

/// Once indexed and its previews made, a library in a bucket is browsed without the bucket:
/// albums, pages and images up to the previews' size; an original needs the network.
@Suite("browsing a bucket library with the bucket unreachable")
struct OfflineBrowsingTests {
    @Test("albums, assets and preview-sized images work with the endpoint dead; an original is networkAccessRequired, or unreachable when allowed")
    func offline() async throws {
        let fixture = try await BucketFixture.make("offline")
        defer { fixture.remove() }
        try await fixture.put([
            "trip/sample1.jpg": try Data(contentsOf: Corpus.file("A_camera_exif/goexif__sample1.jpg")),
            "trip/hp.jpg": try Data(contentsOf: Corpus.file("A_camera_exif/jhead__hp.jpg")),
            "pngs/basn2c08.png": try Data(contentsOf: Corpus.file("C_pngsuite/basn2c08.png")),
            "clips/clip.mp4": try await BucketFixture.video(),
        ])
        let online = try fixture.library(fixture.store())
        try await online.scan()
        let previews = try await online.makePreviews()
        #expect(previews.made == 4 && previews.failed.isEmpty, "every photo and video gets a preview: \(previews)")
        #expect(online.previews.map { try? FileManager.default.contentsOfDirectory(atPath: $0.folder.path) } != nil)

        // The originals the previews were made from are not kept ("Optimize Storage"): the cache is emptied.
        try FileManager.default.removeItem(at: fixture.store().cacheFolder)
        let library = try fixture.library(fixture.store(endpoint: URL(string: "http://127.0.0.1:1")!))
        #expect(try await library.collections().map(\.title).contains("trip"))
        #expect(try await library.albumSummaries(filter: .all).first { $0.collection.title == "trip" }?.count == 2)
        let assets = try await library.assetsByPath()
        #expect(assets.count == 4)
        for (path, asset) in assets {
            let request = ImageRequest(targetSize: PixelSize(width: 200, height: 200), contentMode: .fit, deliveryMode: .highQualityFormat)
            let image = try await library.finalImage(for: asset, request: request)
            #expect(!image.isDegraded && image.pixelSize == asset.pixelSize.fitting(in: request.targetSize), "\(path): \(image.pixelSize)")
        }
        let thumbnails = await library.quickImages(for: Array(assets.values), request: ImageRequest(targetSize: PixelSize(width: 256, height: 256)),
                                                   startingBefore: .now + .seconds(60))
        #expect(thumbnails.count == 4, "a quick image of each, videos too")

        let photo = try #require(assets["trip/sample1.jpg"])
        await #expect(throws: LibraryError.networkAccessRequired(file: "sample1.jpg")) {
            try await library.originalFile(for: photo, request: OriginalRequest(isNetworkAccessAllowed: false))
        }
        var failure: (any Error)?
        do { _ = try await library.originalFile(for: photo, request: OriginalRequest()) } catch { failure = error }
        let line = "\(try #require(failure))"
        #expect(line.contains("unreachable") && line.contains("sample1.jpg") && !line.contains("\n"), "\(line)")
        // A full-size image without network access: the preview first, then the refusal.
        var delivered: [ImageResult] = []
        do {
            for try await image in library.image(for: photo, request: ImageRequest(targetSize: PixelSize(width: 2000, height: 2000))) {
                delivered.append(image)
            }
            Issue.record("a full-size image was made without the original")
        } catch {
            #expect(error as? LibraryError == .networkAccessRequired(file: "sample1.jpg"))
        }
        #expect(delivered.map(\.isDegraded) == [true])
    }
}
