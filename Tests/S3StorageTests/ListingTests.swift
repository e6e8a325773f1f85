import Foundation
import Testing
import S3Storage
import S3TestSupport

/// Listings on a real server: pages and folders.
@Suite("listing on a real server")
struct ListingTests {
    @Test("1,005 objects list as two pages, every key once and in order (signatures checked)")
    func pages() async throws {
        let server = try await MotoServer.authenticating()
        let client = server.client()
        let bucket = try await Fixtures.bucket("pages", on: server)
        let keys = (0..<1005).map { String(format: "photo-%04d.jpg", $0) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, key) in keys.enumerated() {
                if index >= 8 { try await group.next() }
                group.addTask { try await client.put(bucket: bucket, key: key, data: Data(key.utf8), contentType: nil) }
            }
            try await group.waitForAll()
        }

        var pageSizes: [Int] = []
        var listed: [String] = []
        for try await page in client.objects(bucket: bucket, prefix: "photo-", delimiter: nil) {
            pageSizes.append(page.objects.count)
            listed += page.objects.map(\.key)
        }
        #expect(pageSizes == [1000, 5])
        #expect(listed == keys)
        let first = try await client.listObjects(bucket: bucket, prefix: "photo-", delimiter: nil, continuationToken: nil, maxKeys: 10)
        #expect(first.objects.map(\.key) == Array(keys.prefix(10)))
        #expect(first.nextContinuationToken != nil)
    }

    @Test("a delimiter lists one folder level: the objects in it and its subfolders")
    func folders() async throws {
        let server = try await MotoServer.open()
        let client = server.client()
        let bucket = try await Fixtures.bucket("folders", on: server)
        for key in ["top.jpg", "2024/a.jpg", "2024/summer/b.jpg", "2024/summer/c.jpg", "2024/winter/d.jpg", "2025/e.jpg"] {
            try await client.put(bucket: bucket, key: key, data: Data(key.utf8), contentType: nil)
        }
        let root = try await client.listObjects(bucket: bucket, prefix: "", delimiter: "/", continuationToken: nil)
        #expect(root.objects.map(\.key) == ["top.jpg"])
        #expect(root.commonPrefixes == ["2024/", "2025/"])
        let year = try await client.listObjects(bucket: bucket, prefix: "2024/", delimiter: "/", continuationToken: nil)
        #expect(year.objects.map(\.key) == ["2024/a.jpg"])
        #expect(year.commonPrefixes == ["2024/summer/", "2024/winter/"])
        #expect(year.objects.first?.byteSize == Int64("2024/a.jpg".utf8.count))
    }
}
