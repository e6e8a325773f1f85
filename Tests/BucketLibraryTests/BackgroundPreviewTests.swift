import AssetsKit
@testable import BucketLibrary
import Foundation
import IndexedLibrary
import S3TestSupport
import Testing
import TestSupport

/// The previews of a library in a bucket are made from originals read for the occasion and not
/// kept: the cache holds only what the person opened, and the index, the previews and the
/// originals on this machine are their owner's alone.
@Suite("previews of a library in a bucket")
struct BackgroundPreviewTests {
    @Test("makePreviews gives every photo a preview and keeps no original: every one still only in the bucket")
    func previewsKeepNoOriginal() async throws {
        let fixture = try await BucketFixture.make("previews")
        defer { fixture.remove() }
        try await fixture.put([
            "trip/sample1.jpg": try Data(contentsOf: Corpus.file("A_camera_exif/goexif__sample1.jpg")),
            "trip/hp.jpg": try Data(contentsOf: Corpus.file("A_camera_exif/jhead__hp.jpg")),
            "pngs/basn2c08.png": try Data(contentsOf: Corpus.file("C_pngsuite/basn2c08.png")),
            "large.jpg": try await BucketFixture.largeJPEG(width: 1600, height: 1200),
        ])
        let store = fixture.store()
        let library = try fixture.library(store)
        try await library.scan()
        let summary = try await library.makePreviews()
        #expect(summary.made == 4 && summary.failed.isEmpty, "\(summary)")
        let assets = try await library.assetsByPath()
        let previews = try #require(library.previews)
        let sources = try await library.imageSources(of: Array(assets.values))
        for (path, asset) in assets {
            #expect(try previews.contains(#require(sources[asset.id.uuid]).version), "\(path) has a preview")
        }
        #expect(try await library.localOriginals(of: Array(assets.values)).isEmpty, "every cloud badge stays")
        #expect(store.cachedByteCount == 0)
        let partial = (try? FileManager.default.contentsOfDirectory(atPath: store.cacheFolder.appendingPathComponent(".partial").path)) ?? []
        #expect(partial.isEmpty, "the copies read are removed: \(partial)")

        // An original the person opened, then previews again (a new photo): it stays.
        _ = try await library.originalFile(for: assets["trip/hp.jpg"]!, request: OriginalRequest())
        try await fixture.put(corpus: "A_camera_exif/jhead__sony.jpg", at: "trip/sony.jpg")
        try await library.scan()
        #expect(try await library.makePreviews().made == 1)
        let all = try await library.assetsByPath()
        #expect(try await library.localOriginals(of: Array(all.values)) == [assets["trip/hp.jpg"]!.id])
    }

    @Test("the index's folder, the index and the previews are their owner's alone (0700 and 0600)")
    func ownersAlone() async throws {
        let fixture = try await BucketFixture.make("modes")
        defer { fixture.remove() }
        try await fixture.put(corpus: "A_camera_exif/goexif__sample1.jpg", at: "sample1.jpg")
        let library = try fixture.library(fixture.store())
        try await library.scan()
        #expect(try await library.makePreviews().made == 1)
        func mode(_ url: URL) throws -> Int {
            (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
        }
        let index = fixture.indexURL("library")
        #expect(try mode(index.deletingLastPathComponent()) == 0o700)
        #expect(try mode(index) == 0o600)
        let wal = URL(fileURLWithPath: index.path + "-wal")
        if FileManager.default.fileExists(atPath: wal.path) { #expect(try mode(wal) == 0o600) }
        let previews = try #require(library.previews)
        #expect(try mode(previews.folder) == 0o700)
        let asset = try #require(try await library.assetsByPath()["sample1.jpg"])
        let source = try #require(try await library.imageSources(of: [asset])[asset.id.uuid])
        let preview = previews.url(for: source.version)
        #expect(try mode(preview.deletingLastPathComponent()) == 0o700)
        #expect(try mode(preview) == 0o600)
    }
}
