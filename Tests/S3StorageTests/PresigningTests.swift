import AsyncHTTPClient
import Foundation
import NIOCore
import Testing
import S3Storage
import S3TestSupport

/// Presigned URLs read by a plain HTTP client, as ffprobe would.
@Suite("presigned URLs on a real server")
struct PresigningTests {
    @Test("a presigned URL reads the object with a plain GET, whole and by range, and names no secret")
    func plainGet() async throws {
        let server = try await MotoServer.open()
        let client = server.client()
        let bucket = try await Fixtures.bucket("presigned", on: server)
        let data = Fixtures.randomBytes(50_000)
        try await client.put(bucket: bucket, key: "videos/clip one.mp4", data: data, contentType: "video/mp4")
        let url = client.presignedURL(bucket: bucket, key: "videos/clip one.mp4", expires: .seconds(600))
        #expect(url.absoluteString.hasPrefix("\(server.endpoint.absoluteString)/\(bucket)/videos/clip%20one.mp4?"))
        #expect(url.absoluteString.contains("X-Amz-Expires=600"))
        #expect(!url.absoluteString.contains(server.credentials.secretAccessKey))

        var whole = HTTPClientRequest(url: url.absoluteString)
        whole.method = .GET
        let answer = try await HTTPClient.shared.execute(whole, timeout: .seconds(60))
        #expect(answer.status == .ok)
        #expect(Data(buffer: try await answer.body.collect(upTo: 1 << 20)) == data)

        var ranged = whole
        ranged.headers.add(name: "Range", value: "bytes=1000-1999")
        let part = try await HTTPClient.shared.execute(ranged, timeout: .seconds(60))
        #expect(part.status == .partialContent)
        #expect(Data(buffer: try await part.body.collect(upTo: 1 << 20)) == data[1000..<2000])
    }
}
