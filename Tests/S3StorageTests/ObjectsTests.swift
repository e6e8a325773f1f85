import AsyncHTTPClient
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import S3Storage
import S3TestSupport

/// Objects written, read, described and deleted on a real server (moto).
@Suite("objects on a real server")
struct ObjectsTests {
    @Test("an object written is read back whole and by range, and described by HEAD")
    func roundTrip() async throws {
        let server = try await MotoServer.open()
        let client = server.client()
        let bucket = try await Fixtures.bucket("roundtrip", on: server)
        let data = Fixtures.randomBytes(100_000)
        let eTag = try await client.put(bucket: bucket, key: "photos/a.jpg", data: data, contentType: "image/jpeg")

        #expect(try await client.bytes(bucket: bucket, key: "photos/a.jpg", range: nil, ifMatch: nil) == data)
        #expect(try await client.bytes(bucket: bucket, key: "photos/a.jpg", range: 10..<20, ifMatch: eTag) == data[10..<20])
        let object = try await client.head(bucket: bucket, key: "photos/a.jpg")
        #expect(object.key == "photos/a.jpg")
        #expect(object.byteSize == 100_000)
        #expect(object.eTag == eTag)
        #expect(abs(object.lastModified.timeIntervalSinceNow) < 3600)
    }

    @Test("keys with spaces, unicode, +, %, = and other reserved characters round-trip", arguments: [
        "with space.jpg", "ünïcødé/日本語/写真.heic", "a+b.jpg", "100%.png", "x=y&z.txt", "folder with space/é+%=?#.jpg",
        "~tilde-_.dots..jpg", "!'()*;:@$,[].txt", "emoji 📷.jpg",
    ])
    func reservedCharacters(_ key: String) async throws {
        let server = try await MotoServer.open()
        let client = server.client()
        let bucket = try await Fixtures.bucket("keys", on: server)
        let data = Data("bytes of \(key)".utf8)
        try await client.put(bucket: bucket, key: key, data: data, contentType: nil)

        #expect(try await client.bytes(bucket: bucket, key: key, range: nil, ifMatch: nil) == data)
        #expect(try await client.head(bucket: bucket, key: key).byteSize == Int64(data.count))
        let listed = try await client.listObjects(bucket: bucket, prefix: key, delimiter: nil, continuationToken: nil)
        #expect(listed.objects.map(\.key) == [key])
        try await client.delete(bucket: bucket, key: key)
        #expect(try await client.listObjects(bucket: bucket, prefix: "", delimiter: nil, continuationToken: nil).objects.isEmpty)
    }

    @Test("a missing object is noSuchKey, naming bucket and key, for every way of reading it")
    func missingObject() async throws {
        let server = try await MotoServer.open()
        let client = server.client()
        let bucket = try await Fixtures.bucket("missing", on: server)
        let missing = S3Error.noSuchKey(bucket: bucket, key: "no/such.jpg")
        await #expect(throws: missing) { try await client.head(bucket: bucket, key: "no/such.jpg") }
        await #expect(throws: missing) { try await client.bytes(bucket: bucket, key: "no/such.jpg", range: 0..<10, ifMatch: nil) }
        let file = try Fixtures.temporaryFolder().appendingPathComponent("no.jpg")
        await #expect(throws: missing) {
            try await client.download(bucket: bucket, key: "no/such.jpg", eTag: nil, to: file, progress: nil)
        }
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(missing.description == "s3://\(bucket)/no/such.jpg: no such object")
    }

    @Test("a missing bucket is noSuchBucket")
    func missingBucket() async throws {
        let client = try await MotoServer.open().client()
        await #expect(throws: S3Error.noSuchBucket(bucket: "s3t-never-made")) {
            try await client.listObjects(bucket: "s3t-never-made", prefix: "", delimiter: nil, continuationToken: nil)
        }
        await #expect(throws: S3Error.noSuchBucket(bucket: "s3t-never-made")) {
            try await client.bytes(bucket: "s3t-never-made", key: "k", range: nil, ifMatch: nil)
        }
    }

    @Test("bytes refuses more than its limit, before reading when the size is known")
    func bytesAreBounded() async throws {
        let server = try await MotoServer.open()
        var limits = S3Client.Limits()
        limits.maximumBytes = 1024
        let client = S3Client(configuration: server.configuration(), limits: limits)
        let bucket = try await Fixtures.bucket("bounded", on: server)
        try await client.put(bucket: bucket, key: "big", data: Fixtures.randomBytes(4096), contentType: nil)

        await #expect(throws: S3Error.tooLarge(bucket: bucket, key: "big", size: 4096, limit: 1024)) {
            try await client.bytes(bucket: bucket, key: "big", range: nil, ifMatch: nil)
        }
        await #expect(throws: S3Error.tooLarge(bucket: bucket, key: "big", size: 2048, limit: 1024)) {
            try await client.bytes(bucket: bucket, key: "big", range: 0..<2048, ifMatch: nil)
        }
        #expect(try await client.bytes(bucket: bucket, key: "big", range: 1024..<2048, ifMatch: nil).count == 1024)
    }

    @Test("a range past the end gives the bytes there are, and none past the end")
    func rangePastTheEnd() async throws {
        let server = try await MotoServer.open()
        let client = server.client()
        let bucket = try await Fixtures.bucket("range", on: server)
        try await client.put(bucket: bucket, key: "ten", data: Data("0123456789".utf8), contentType: nil)
        try await client.put(bucket: bucket, key: "empty", data: Data(), contentType: nil)

        #expect(try await client.bytes(bucket: bucket, key: "ten", range: 5..<100, ifMatch: nil) == Data("56789".utf8))
        #expect(try await client.bytes(bucket: bucket, key: "ten", range: 20..<30, ifMatch: nil).isEmpty)
        #expect(try await client.bytes(bucket: bucket, key: "empty", range: 0..<65536, ifMatch: nil).isEmpty)
    }

    @Test("a changed object read with its old entity tag is the error changed, not the new bytes")
    func ifMatch() async throws {
        let server = try await MotoServer.open()
        let client = server.client()
        let bucket = try await Fixtures.bucket("ifmatch", on: server)
        let first = try await client.put(bucket: bucket, key: "k", data: Data("first".utf8), contentType: nil)
        try await client.put(bucket: bucket, key: "k", data: Data("second".utf8), contentType: nil)

        await #expect(throws: S3Error.changed(bucket: bucket, key: "k")) {
            try await client.bytes(bucket: bucket, key: "k", range: 0..<3, ifMatch: first)
        }
        let file = try Fixtures.temporaryFolder().appendingPathComponent("k")
        await #expect(throws: S3Error.changed(bucket: bucket, key: "k")) {
            try await client.download(bucket: bucket, key: "k", eTag: first, to: file, progress: nil)
        }
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test("a deleted object is gone, and creating a bucket twice is no error")
    func deleteAndCreate() async throws {
        let server = try await MotoServer.open()
        let client = server.client()
        let bucket = try await Fixtures.bucket("delete", on: server)
        try await client.createBucket(bucket)
        try await client.put(bucket: bucket, key: "k", data: Data("x".utf8), contentType: nil)
        try await client.delete(bucket: bucket, key: "k")
        await #expect(throws: S3Error.noSuchKey(bucket: bucket, key: "k")) { try await client.head(bucket: bucket, key: "k") }
        try await client.delete(bucket: bucket, key: "k")
    }

    @Test("an endpoint nobody answers at is unreachable, naming the endpoint")
    func unreachable() async throws {
        // A port bound but not listening: connecting is refused at once.
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                try #require(bind(socket, address, length) == 0 && getsockname(socket, address, &length) == 0)
            }
        }
        let endpoint = URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))")!
        // The HTTP client tries to connect again until its connect timeout: a short one here.
        let httpClient = HTTPClient(configuration: HTTPClient.Configuration(
            redirectConfiguration: .disallow, timeout: HTTPClient.Configuration.Timeout(connect: .milliseconds(300))))
        defer { Task { try await httpClient.shutdown() } }
        let client = S3Client(configuration: S3Configuration(endpoint: endpoint, credentials: S3Credentials(accessKeyID: "A", secretAccessKey: "S")),
                              httpClient: httpClient)
        do {
            _ = try await client.head(bucket: "bucket", key: "k")
            Issue.record("an answer from a port nobody listens on")
        } catch let S3Error.unreachable(reported, reason) {
            #expect(reported == endpoint.absoluteString)
            #expect(reason == "connection refused")
        }
    }
}
