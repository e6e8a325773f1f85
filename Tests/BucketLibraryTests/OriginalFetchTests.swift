import AssetsKit
@testable import BucketLibrary
import Foundation
import IndexedLibrary
import S3Storage
import S3TestSupport
import Testing
import TestSupport

/// Originals brought from the bucket on demand, with PhotoKit's semantics: network access allowed
/// or not per request, progress, one transfer for every caller, cancellation that stops it,
/// resumption after a dropped connection, a version check.
@Suite("fetching originals from a bucket")
struct OriginalFetchTests {
    static let size = 3_000_000

    /// A bucket holding `large.jpg` (a few MB), indexed; and the library read through `endpoint`.
    static func indexed(_ purpose: String) async throws -> (BucketFixture, Data) {
        let fixture = try await BucketFixture.make(purpose)
        let photo = try await BucketFixture.largeJPEG(width: 2400, height: 1800)
        try await fixture.put(photo, at: "large.jpg")
        try await fixture.library(fixture.store()).scan()
        return (fixture, photo)
    }

    /// The one asset of the library.
    static func onlyAsset(_ library: IndexedLibrary) async throws -> Asset {
        try #require(try await library.assets(in: library.cameraRoll().id, options: FetchOptions()).first())
    }

    /// The `GET` requests of the object that reached `proxy` (the first request of each connection).
    static func gets(_ proxy: FaultProxy) -> [String] {
        proxy.events.compactMap { event in
            guard case let .request(_, head) = event, head.hasPrefix("GET "), head.contains("large.jpg") else { return nil }
            return head
        }
    }

    @Test("without network access an original not here is networkAccessRequired; with it, it is fetched with progress and read")
    func networkAccessPerRequest() async throws {
        let (fixture, photo) = try await Self.indexed("access")
        defer { fixture.remove() }
        let library = try fixture.library(fixture.store())
        let asset = try await Self.onlyAsset(library)
        await #expect(throws: LibraryError.networkAccessRequired(file: "large.jpg")) {
            try await library.originalFile(for: asset, request: OriginalRequest(isNetworkAccessAllowed: false))
        }
        #expect(try await library.localOriginals(of: [asset]).isEmpty)
        let log = TransferLog()
        let original = try await library.originalFile(for: asset, request: OriginalRequest(isNetworkAccessAllowed: true, progress: log.report))
        #expect(original.byteSize == Int64(photo.count))
        #expect(try Data(contentsOf: original.file.url) == photo)
        #expect(log.all.last == TransferProgress(received: Int64(photo.count), total: Int64(photo.count)))
        #expect(log.all.map(\.received) == log.all.map(\.received).sorted())
        #expect(try await library.localOriginals(of: [asset]) == [asset.id])
        // Now local: no network access needed, nothing transferred.
        let again = TransferLog()
        _ = try await library.originalFile(for: asset, request: OriginalRequest(isNetworkAccessAllowed: false, progress: again.report))
        #expect(again.all.isEmpty)
    }

    @Test("two requests for one original make one download, and both hear its progress")
    func oneDownloadForTwo() async throws {
        let (fixture, photo) = try await Self.indexed("shared")
        defer { fixture.remove() }
        let server = fixture.server
        let proxy = try await FaultProxy.start(upstreamPort: server.port, faults: [.gated])
        defer { Task { await proxy.stop() } }
        let library = try fixture.library(fixture.store(endpoint: proxy.endpoint))
        let asset = try await Self.onlyAsset(library)
        let first = TransferLog(), second = TransferLog()
        let one = Task { try await library.originalFile(for: asset, request: OriginalRequest(progress: first.report)) }
        _ = try await proxy.event("the GET reaches the server") { if case .request = $0 { true } else { false } }
        proxy.grant(200_000)
        await first.wait { $0.received > 0 }
        let two = Task { try await library.originalFile(for: asset, request: OriginalRequest(progress: second.report)) }
        // A caller that joins hears at once how far the transfer is.
        await second.wait { $0.received > 0 }
        proxy.grant(Self.size * 2)
        _ = try await one.value
        _ = try await two.value
        #expect(Self.gets(proxy).count == 1, "\(proxy.events)")
        #expect(first.all.last?.received == Int64(photo.count) && second.all.last?.received == Int64(photo.count))
    }

    @Test("cancelling the only caller stops the transfer: the connection is closed with few bytes passed, and nothing is kept")
    func cancelStopsTransfer() async throws {
        let (fixture, photo) = try await Self.indexed("cancel")
        defer { fixture.remove() }
        let proxy = try await FaultProxy.start(upstreamPort: fixture.server.port, faults: [.gated])
        defer { Task { await proxy.stop() } }
        let store = fixture.store(endpoint: proxy.endpoint)
        let library = try fixture.library(store)
        let asset = try await Self.onlyAsset(library)
        let log = TransferLog()
        let fetch = Task { try await library.originalFile(for: asset, request: OriginalRequest(progress: log.report)) }
        _ = try await proxy.event("the GET reaches the server") { if case .request = $0 { true } else { false } }
        proxy.grant(100_000)
        // Every byte let through is read first: bytes left unread in the socket would make the
        // close a reset, which the proxy does not count as the client closing.
        await log.wait { $0.received >= 99_000 }
        let cancelled = ContinuousClock.now
        fetch.cancel()
        let closed = try await proxy.event("the client closes the connection") { if case .clientClosed = $0 { true } else { false } }
        print("connection closed \((ContinuousClock.now - cancelled).formatted(.units(allowed: [.milliseconds]))) after the cancel")
        guard case let .clientClosed(_, forwarded) = closed else { return }
        #expect(forwarded <= 100_000 && forwarded < photo.count)
        await #expect(throws: CancellationError.self) { try await fetch.value }
        try await HangGuard.waitUntil("the transfer ends") { store.downloads.activeCount == 0 }
        #expect(try await library.localOriginals(of: [asset]).isEmpty)
        #expect(store.cachedByteCount == 0)
    }

    @Test("an original passed on as it arrives: its first bytes before the bucket has sent the rest, every byte once the transfer is checked, then kept")
    func arrivingOriginalStreams() async throws {
        let (fixture, photo) = try await Self.indexed("arriving")
        defer { fixture.remove() }
        let proxy = try await FaultProxy.start(upstreamPort: fixture.server.port, faults: [.gated])
        defer { Task { await proxy.stop() } }
        let library = try fixture.library(fixture.store(endpoint: proxy.endpoint))
        let asset = try await Self.onlyAsset(library)
        async let started = library.arrivingOriginal(of: asset)
        _ = try await proxy.event("the GET reaches the server") { if case .request = $0 { true } else { false } }
        proxy.grant(300_000)
        let arriving = try #require(try await started)
        #expect(arriving.byteSize == Int64(photo.count) && arriving.contentType == "image/jpeg")
        var received = Data()
        while received.count < 100_000, let chunk = try await arriving.nextChunk() { received += chunk }
        // Only a part has passed the proxy: these bytes came while the rest was held.
        #expect(received.count >= 100_000 && received.count < photo.count && received == photo.prefix(received.count))
        proxy.grant(Self.size * 2)
        while let chunk = try await arriving.nextChunk() { received += chunk }
        #expect(received == photo)
        #expect(try await library.localOriginals(of: [asset]) == [asset.id])
        #expect(try await library.arrivingOriginal(of: asset) == nil, "once here, it is read from the local file")
    }

    @Test("a fetch asks for the version the index knows: its first GET carries If-Match with the listed entity tag")
    func fetchAsksForTheIndexedVersion() async throws {
        let (fixture, photo) = try await Self.indexed("if-match")
        defer { fixture.remove() }
        let proxy = try await FaultProxy.start(upstreamPort: fixture.server.port, faults: [])
        defer { Task { await proxy.stop() } }
        let library = try fixture.library(fixture.store(endpoint: proxy.endpoint))
        let asset = try await Self.onlyAsset(library)
        let original = try await library.originalFile(for: asset, request: OriginalRequest())
        #expect(try Data(contentsOf: original.file.url) == photo)
        let listed = try await fixture.client.listObjects(bucket: fixture.bucket, prefix: fixture.prefix, delimiter: nil,
                                                          continuationToken: nil, maxKeys: 10)
        let tag = try #require(listed.objects.first { $0.key.hasSuffix("large.jpg") }?.eTag)
        let gets = Self.gets(proxy)
        #expect(gets.count == 1 && gets[0].lowercased().contains("if-match: \(tag.lowercased())"), "\(gets) \(tag)")
    }

    @Test("a connection dropped mid-download is resumed by Range, and the original is whole")
    func resumesAfterDrop() async throws {
        let (fixture, photo) = try await Self.indexed("resume")
        defer { fixture.remove() }
        let proxy = try await FaultProxy.start(upstreamPort: fixture.server.port, faults: [.dropAfter(bytes: 700_000)])
        defer { Task { await proxy.stop() } }
        let library = try fixture.library(fixture.store(endpoint: proxy.endpoint))
        let asset = try await Self.onlyAsset(library)
        let original = try await library.originalFile(for: asset, request: OriginalRequest())
        #expect(try Data(contentsOf: original.file.url) == photo)
        let gets = Self.gets(proxy)
        #expect(gets.count == 2)
        #expect(gets.last?.lowercased().contains("range: bytes=") == true)
    }

    @Test("an object answering more bytes than the index knows is refused before a byte is written, and nothing is kept")
    func longerThanIndexed() async throws {
        let fixture = try await BucketFixture.make("longer")
        defer { fixture.remove() }
        try await fixture.put(corpus: "A_camera_exif/jhead__hp.jpg", at: "e.jpg")
        let store = fixture.store()
        let library = try fixture.library(store)
        try await library.scan()
        let asset = try await Self.onlyAsset(library)
        // The same key now answers megabytes: the index knows the small one.
        try await fixture.put(try await BucketFixture.largeJPEG(width: 2400, height: 1800), at: "e.jpg")
        let log = TransferLog()
        await #expect(throws: LibraryError.originalUnavailable(file: "e.jpg")) {
            try await library.originalFile(for: asset, request: OriginalRequest(isNetworkAccessAllowed: true, progress: log.report))
        }
        #expect(log.all.allSatisfy { $0.received == 0 }, "no byte of the longer answer was taken: \(log.all.suffix(2))")
        #expect(store.cachedByteCount == 0)
    }

    @Test("an object changed or deleted since it was indexed is originalUnavailable, and nothing is kept")
    func changedOrMissing() async throws {
        let (fixture, _) = try await Self.indexed("changed")
        defer { fixture.remove() }
        let store = fixture.store()
        let library = try fixture.library(store)
        let asset = try await Self.onlyAsset(library)
        try await fixture.put(corpus: "A_camera_exif/jhead__hp.jpg", at: "large.jpg")
        await #expect(throws: LibraryError.originalUnavailable(file: "large.jpg")) {
            try await library.originalFile(for: asset, request: OriginalRequest())
        }
        try await fixture.delete("large.jpg")
        await #expect(throws: LibraryError.originalUnavailable(file: "large.jpg")) {
            try await library.originalFile(for: asset, request: OriginalRequest())
        }
        #expect(store.cachedByteCount == 0)
    }
}
