import AssetsKit
import Foundation
import LibraryOpening
import Testing

/// A root `s3://BUCKET/PREFIX` is a library in a bucket: always indexed, its index in the data
/// folder keyed by address and endpoint, opened without the network once indexed.
@Suite("LibraryOpener: a library in a bucket")
struct BucketOpeningTests {
    static let keys = ["AWS_ACCESS_KEY_ID": "AKIAOPENINGTEST00000", "AWS_SECRET_ACCESS_KEY": "opening-test-secret"]

    func opener(data: URL, endpoint: String = "http://127.0.0.1:1") -> LibraryOpener {
        LibraryOpener(dataFolder: data, bucketConnection: BucketConnection(environment: Self.keys.merging(["AWS_ENDPOINT_URL": endpoint]) { $1 }))
    }

    @Test("the index of a bucket is in the data folder, one per address and endpoint; auto resolves to indexed")
    func indexPlace() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("opening-\(UUID().uuidString)")
        let root = try #require(URL(string: "s3://photos/2024/trip/"))
        let index = opener(data: data).defaultIndexURL(forRoot: root)
        #expect(index.path.hasPrefix(data.appendingPathComponent("libraries/photos-trip-").path))
        #expect(opener(data: data, endpoint: "http://127.0.0.1:2").defaultIndexURL(forRoot: root) != index)
        // One endpoint, one index: a `/` at the end or a host in capitals is the same endpoint.
        #expect(opener(data: data, endpoint: "http://127.0.0.1:1/").defaultIndexURL(forRoot: root) == index)
        #expect(opener(data: data, endpoint: "HTTP://127.0.0.1:1//").defaultIndexURL(forRoot: root) == index)
        #expect(opener(data: data).defaultIndexURL(forRoot: try #require(URL(string: "s3://photos/2024/"))) != index)
        #expect(opener(data: data).resolve(root: root, backend: .auto) == .indexed)
        #expect(LibraryOpener.isBucket(root) && !LibraryOpener.isBucket(data))
    }

    @Test("a bucket never indexed, --backend folder and a bad address are refused with one line; nothing is reached or written")
    func refusals() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("opening-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let root = try #require(URL(string: "s3://photos/2024"))
        await #expect(throws: BucketOpeningError.notIndexed(place: "s3://photos/2024")) {
            try await opener(data: data).open(root: root, backend: .auto)
        }
        await #expect(throws: BucketOpeningError.alwaysIndexed(place: "s3://photos/2024")) {
            try await opener(data: data).open(root: root, backend: .folder)
        }
        await #expect(throws: BucketOpeningError.invalidAddress("s3://No_Such/x")) {
            try await opener(data: data).indexedLibrary(root: try #require(URL(string: "s3://No_Such/x")))
        }
        #expect(!FileManager.default.fileExists(atPath: data.path))
    }

    @Test("an index made but never scanned (the endpoint down) is not opened for browsing")
    func unscannedIndex() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("opening-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let root = try #require(URL(string: "s3://photos/2024"))
        let library = try await opener(data: data).indexedLibrary(root: root)
        #expect(library.placeDescription == "s3://photos/2024/")
        await #expect(throws: (any Error).self) { try await library.scan(progress: nil) }
        await #expect(throws: BucketOpeningError.notIndexed(place: "s3://photos/2024")) {
            try await opener(data: data).open(root: root, backend: .auto)
        }
    }
}
