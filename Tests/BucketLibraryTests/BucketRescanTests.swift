import AssetsKit
@testable import BucketLibrary
import Foundation
import IndexedLibrary
import S3Storage
import Testing
import TestSupport

/// Indexing a bucket again follows what changed in it: new, overwritten, deleted and moved objects.
@Suite("indexing a bucket again")
struct BucketRescanTests {
    @Test("new, overwritten (another entity tag), deleted and copied-then-deleted objects are added, updated, removed and moved")
    func followsChanges() async throws {
        let fixture = try await BucketFixture.make("rescan")
        defer { fixture.remove() }
        try await fixture.put(corpus: "A_camera_exif/jhead__sony.jpg", at: "a/sony.jpg")
        try await fixture.put(corpus: "A_camera_exif/jhead__hp.jpg", at: "a/hp.jpg")
        try await fixture.put(corpus: "A_camera_exif/jhead__olympus.jpg", at: "a/olympus.jpg")
        try await fixture.put(corpus: "A_camera_exif/goexif__sample1.jpg", at: "b/sample1.jpg")
        let library = try fixture.library(fixture.store())
        #expect(try await library.scan().added == 4)
        let before = try await library.assetsByPath()

        try await fixture.put(corpus: "A_camera_exif/jhead__canon-300d.jpg", at: "b/new.jpg")
        try await fixture.put(corpus: "A_camera_exif/jhead__gpsinfo.jpg", at: "a/hp.jpg")
        try await fixture.delete("a/olympus.jpg")
        // A move in S3: a copy under the new key, then the old one deleted.
        try await fixture.put(corpus: "A_camera_exif/jhead__sony.jpg", at: "c/sony-moved.jpg")
        try await fixture.delete("a/sony.jpg")
        let summary = try await library.scan()
        #expect(summary.added == 1)
        #expect(summary.updated == 1)
        #expect(summary.removed == 1)
        #expect(summary.moved == 1)
        let after = try await library.assetsByPath()
        #expect(Set(after.keys) == ["a/hp.jpg", "b/sample1.jpg", "b/new.jpg", "c/sony-moved.jpg"])
        #expect(after["c/sony-moved.jpg"]?.id == before["a/sony.jpg"]?.id, "a moved object keeps its asset")
        #expect(after["a/hp.jpg"]?.id == before["a/hp.jpg"]?.id)
        #expect(after["a/hp.jpg"]?.location != nil, "the overwritten object was read again: the GPS photo's place")
        #expect(try await library.scan() == ScanSummary(scanned: 4), "a third scan finds nothing to do")
    }

    @Test("a copy whose original is still there is no move: both are assets")
    func copyIsNotMove() async throws {
        let fixture = try await BucketFixture.make("copy")
        defer { fixture.remove() }
        try await fixture.put(corpus: "A_camera_exif/jhead__sony.jpg", at: "a/sony.jpg")
        let library = try fixture.library(fixture.store())
        try await library.scan()
        try await fixture.put(corpus: "A_camera_exif/jhead__sony.jpg", at: "b/sony-copy.jpg")
        let summary = try await library.scan()
        #expect(summary.added == 1 && summary.moved == 0)
        #expect(Set(try await library.assetsByPath().keys) == ["a/sony.jpg", "b/sony-copy.jpg"])
    }
}

extension ScanSummary {
    /// A summary of a scan that saw `scanned` files and did nothing else.
    init(scanned: Int) {
        self.init()
        self.scanned = scanned
    }
}
