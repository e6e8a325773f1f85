import AssetsKit
@testable import BucketLibrary
import Foundation
@testable import IndexedLibrary
import S3Storage
import S3TestSupport
import Testing
import TestSupport

/// A listing from a hostile (or intercepted) endpoint: every listed key, size and token is
/// checked where it enters; a bad entry is one failure naming it, never a path, a trap or an
/// endless walk. Against a real HTTP server that answers what moto never would (``HostileS3``).
@Suite("hostile listings")
struct HostileListingTests {
    struct Bucket {
        let server: HostileS3
        let name: String
        let scratch: URL

        static func make(_ purpose: String) async throws -> Bucket {
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-tests-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            return Bucket(server: try await HostileS3.shared(), name: "hl-\(purpose)-\(UUID().uuidString.prefix(8).lowercased())", scratch: scratch)
        }

        var store: BucketOriginalsStore {
            let configuration = S3Configuration(endpoint: server.endpoint, credentials: S3Credentials(accessKeyID: "AKIAHOSTILE", secretAccessKey: "hostile"),
                                                usesPathStyle: true)
            let index = scratch.appendingPathComponent("index/library.sqlite")
            return BucketOriginalsStore(location: S3Location(bucket: name, prefix: "lib/")!, client: S3Client(configuration: configuration),
                                        cacheFolder: BucketOriginalsStore.cacheFolder(besideIndexAt: index))
        }

        func library(_ store: BucketOriginalsStore) throws -> IndexedLibrary {
            try IndexedLibrary(root: store.rootURL, databaseURL: scratch.appendingPathComponent("index/library.sqlite"), originals: store)
        }

        func remove() { try? FileManager.default.removeItem(at: scratch) }
    }

    static let photo = try! Data(contentsOf: Corpus.file("A_camera_exif/jhead__hp.jpg"))

    @Test("keys with `..` (percent-encoded too), outside the prefix or past the delimiter are refused by name; nothing is written outside the cache")
    func traversalKeys() async throws {
        let bucket = try await Bucket.make("trav")
        defer { bucket.remove() }
        try bucket.server.serve(bucket: bucket.name, objects: [
            .init(key: "lib/ok.jpg", data: Self.photo),
            .init(key: "lib/a/%2E%2E/%2E%2E/%2E%2E/pwned/victim.jpg", data: Self.photo),
            .init(key: "lib/%2E%2E%2Fup.jpg", data: Self.photo),
            .init(key: "libX/sibling.jpg", data: Self.photo),
            .init(key: "li", data: Self.photo),
            .init(key: "lib/ctl%0Aname.jpg", data: Self.photo),
        ])
        let store = bucket.store
        let library = try bucket.library(store)
        let summary = try await library.scan()
        #expect(Set(try await library.assetsByPath().keys) == ["ok.jpg"])
        let reasons = Dictionary(summary.failed.map { ($0.path, $0.reason) }, uniquingKeysWith: { first, _ in first })
        #expect(reasons["a/../../../pwned/victim.jpg"]?.contains("ignored the delimiter") == true, "\(reasons)")
        #expect(reasons["../up.jpg"]?.contains("ignored the delimiter") == true, "\(reasons)")
        #expect(reasons["libX/sibling.jpg"]?.contains("outside the prefix") == true, "\(reasons)")
        #expect(reasons["li"]?.contains("outside the prefix") == true, "\(reasons)")
        #expect(reasons["ctl\\u{A}name.jpg"]?.contains("control character") == true, "\(reasons)")
        #expect(summary.failed.count == 5)
        // A path an older index may hold is never made a file's path under the cache.
        await #expect(throws: LibraryError.self) {
            _ = try await store.original(at: "a/../../../pwned/victim.jpg", byteSize: 1, modificationTime: 0)
        }
        let outside = bucket.scratch.appendingPathComponent("pwned")
        #expect(!FileManager.default.fileExists(atPath: outside.path))
    }

    @Test("a negative, absurd or unreadable size, key or time is one failure for its entry; the rest is indexed")
    func unreadableEntries() async throws {
        let bucket = try await Bucket.make("sizes")
        defer { bucket.remove() }
        try bucket.server.serve(bucket: bucket.name, objects: [
            .init(key: "lib/ok.jpg", data: Self.photo),
            .init(key: "lib/negative.jpg", data: Self.photo, size: "-1"),
            .init(key: "lib/absurd.jpg", data: Self.photo, size: "99999999999999999999"),
            .init(key: "lib/huge.jpg", data: Self.photo, size: String(Int64.max)),
            .init(key: "lib/bad%FF.jpg", data: Self.photo),
            .init(key: "lib/nosize.jpg", data: Self.photo, size: ""),
            .init(key: "lib/notime.jpg", data: Self.photo, lastModified: ""),
        ])
        let library = try bucket.library(bucket.store)
        let summary = try await library.scan()
        #expect(Set(try await library.assetsByPath().keys) == ["ok.jpg"])
        let reasons = Dictionary(summary.failed.map { ($0.path, $0.reason) }, uniquingKeysWith: { first, _ in first })
        #expect(reasons["negative.jpg"]?.contains("not a number of bytes") == true, "\(reasons)")
        #expect(reasons["absurd.jpg"]?.contains("not a number of bytes") == true, "\(reasons)")
        #expect(reasons["huge.jpg"]?.contains("not a number of bytes") == true, "\(reasons)")
        #expect(reasons["lib/bad%FF.jpg"]?.contains("not percent-encoded UTF-8") == true, "\(reasons)")
        #expect(reasons["nosize.jpg"]?.contains("no size") == true, "\(reasons)")
        #expect(reasons["notime.jpg"]?.contains("time") == true, "\(reasons)")
        #expect(summary.failed.count == 6)
    }

    @Test("a size over the object's is refused saying the listed size is wrong, not that the object changed")
    func oversizedDeclaration() async throws {
        let bucket = try await Bucket.make("oversize")
        defer { bucket.remove() }
        try bucket.server.serve(bucket: bucket.name, objects: [.init(key: "lib/big.jpg", data: Self.photo, size: "9999999999999")])
        let summary = try await bucket.library(bucket.store).scan()
        let reason = try #require(summary.failed.first { $0.path == "big.jpg" }?.reason)
        #expect(reason.contains("the listed size is not the object's"), "\(reason)")
        #expect(!reason.contains("changed"), "\(reason)")
    }

    @Test("one object refused (403) or failing (500) is its failure; the scan goes on")
    func oneObjectRefused() async throws {
        let bucket = try await Bucket.make("denied")
        defer { bucket.remove() }
        try bucket.server.serve(bucket: bucket.name, objects: [
            .init(key: "lib/denied.jpg", data: Self.photo, status: 403, code: "AccessDenied"),
            .init(key: "lib/failing.jpg", data: Self.photo, status: 500, code: "InternalError"),
            .init(key: "lib/ok.jpg", data: Self.photo),
        ])
        let library = try bucket.library(bucket.store)
        let summary = try await library.scan()
        #expect(Set(try await library.assetsByPath().keys) == ["ok.jpg"])
        let reasons = Dictionary(summary.failed.map { ($0.path, $0.reason) }, uniquingKeysWith: { first, _ in first })
        #expect(reasons["denied.jpg"]?.contains("access denied") == true, "\(reasons)")
        #expect(reasons["failing.jpg"]?.contains("HTTP 500") == true, "\(reasons)")
    }

    @Test("a continuation token given twice stops the scan with one line naming the bucket")
    func repeatedToken() async throws {
        let bucket = try await Bucket.make("loop")
        defer { bucket.remove() }
        try bucket.server.serve(bucket: bucket.name, objects: [.init(key: "lib/ok.jpg", data: Self.photo)], tokens: .same)
        let library = try bucket.library(bucket.store)
        do {
            _ = try await library.scan()
            Issue.record("the scan ended")
        } catch {
            #expect("\(error)".contains("s3://\(bucket.name)/lib/"), "\(error)")
            #expect("\(error)".contains("continuation token it gave before"), "\(error)")
        }
        #expect(bucket.server.listingRequests(bucket: bucket.name) == 2)
    }

    @Test("a listing that never ends is refused past the bound of one folder's entries")
    func endlessListing() async throws {
        let bucket = try await Bucket.make("endless")
        defer { bucket.remove() }
        try bucket.server.serve(bucket: bucket.name, objects: [], tokens: .fresh)
        let store = bucket.store
        var walk = BucketListingWalk(client: store.client, location: store.location)
        walk.maximumEntriesPerFolder = 2_500
        do {
            _ = try await walk.next()
            Issue.record("the walk ended")
        } catch {
            #expect("\(error)".contains("s3://\(bucket.name)/lib/: the listing of this folder goes on past 2500 entries"), "\(error)")
        }
        #expect(bucket.server.listingRequests(bucket: bucket.name) == 3)
    }
}
