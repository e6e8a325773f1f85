import AssetsKit
@testable import BucketLibrary
import Foundation
import IndexedLibrary
import S3Storage
import Synchronization
import Testing
import TestSupport

/// A bucket is not watched with inotify: a watched library lists it again every so often.
@Suite("watching a bucket library")
struct BucketWatchingTests {
    @Test("a watched bucket library polls (routine, not a warning) and a periodic rescan picks up a new object")
    func periodicRescan() async throws {
        let fixture = try await BucketFixture.make("watch")
        defer { fixture.remove() }
        try await fixture.put(corpus: "A_camera_exif/jhead__hp.jpg", at: "hp.jpg")
        let store = BucketOriginalsStore(location: fixture.location, client: fixture.client,
                                         cacheFolder: BucketOriginalsStore.cacheFolder(besideIndexAt: fixture.indexURL("library")),
                                         rescanInterval: .milliseconds(100))
        let library = try fixture.library(store)
        try await library.scan()
        let events = Mutex<[LibraryWatchEvent]>([])
        let watch = await library.startWatching { event in events.withLock { $0.append(event) } }
        try await fixture.put(corpus: "A_camera_exif/jhead__sony.jpg", at: "sony.jpg")
        try await HangGuard.waitUntil("a rescan finds the new object") {
            events.withLock { $0.contains { $0.description.contains("1 added") } }
        }
        await watch.stop()
        let polling = try #require(events.withLock { $0.first { $0.description.contains("rescanning every") } })
        #expect(polling.importance == .routine && polling.description.contains("listed again"), "\(polling)")
        #expect(try await library.assetCount(in: library.cameraRoll().id, filter: .all) == 2)
    }
}
