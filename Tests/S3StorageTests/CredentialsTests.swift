import Foundation
import Testing
import S3Storage
import S3TestSupport

/// Signatures checked for real: moto's authenticating server recomputes every request's
/// signature with its IAM user's secret.
@Suite("credentials on a server that checks signatures")
struct CredentialsTests {
    @Test("our signatures are accepted for PUT, HEAD, GET, ranged GET, listing and DELETE")
    func accepted() async throws {
        let server = try await MotoServer.authenticating()
        #expect(server.checksSignatures)
        let client = server.client()
        let bucket = try await Fixtures.bucket("signed", on: server)
        let data = Fixtures.randomBytes(10_000)
        let eTag = try await client.put(bucket: bucket, key: "2024/IMG_0001.jpg", data: data, contentType: "image/jpeg")
        #expect(try await client.head(bucket: bucket, key: "2024/IMG_0001.jpg").eTag == eTag)
        #expect(try await client.bytes(bucket: bucket, key: "2024/IMG_0001.jpg", range: nil, ifMatch: nil) == data)
        #expect(try await client.bytes(bucket: bucket, key: "2024/IMG_0001.jpg", range: 100..<200, ifMatch: eTag) == data[100..<200])
        // (moto's check gets a `/` in the query wrong, for boto3 too: no "2024/" prefix here.)
        let page = try await client.listObjects(bucket: bucket, prefix: "2024", delimiter: nil, continuationToken: nil, maxKeys: 5)
        #expect(page.objects.map(\.key) == ["2024/IMG_0001.jpg"])
        try await client.delete(bucket: bucket, key: "2024/IMG_0001.jpg")
    }

    @Test("a wrong secret is refused as accessDenied naming the bucket, and the error never shows the secret")
    func wrongSecret() async throws {
        let server = try await MotoServer.authenticating()
        let bucket = try await Fixtures.bucket("wrongsecret", on: server)
        let wrong = S3Credentials(accessKeyID: server.credentials.accessKeyID, secretAccessKey: "not-the-secret-at-all")
        let client = server.client(credentials: wrong)
        do {
            _ = try await client.listObjects(bucket: bucket, prefix: "", delimiter: nil, continuationToken: nil)
            Issue.record("a wrong secret was accepted")
        } catch let error as S3Error {
            #expect(error == .accessDenied(bucket: bucket, reason: "the credentials were refused (SignatureDoesNotMatch)"))
            #expect(!"\(error)".contains("not-the-secret-at-all"))
            #expect(!"\(error)".contains(server.credentials.secretAccessKey))
            #expect(!"\(error)".contains("Signature="))
        }
    }

    @Test("an unknown access key is refused as accessDenied")
    func unknownKey() async throws {
        let server = try await MotoServer.authenticating()
        let bucket = try await Fixtures.bucket("unknownkey", on: server)
        let client = server.client(credentials: S3Credentials(accessKeyID: "AKIAUNKNOWN000000000", secretAccessKey: "whatever"))
        await #expect(throws: S3Error.accessDenied(bucket: bucket, reason: "the credentials were refused (InvalidAccessKeyId)")) {
            try await client.put(bucket: bucket, key: "k", data: Data("x".utf8), contentType: nil)
        }
        let file = try Fixtures.temporaryFolder().appendingPathComponent("k")
        await #expect(throws: S3Error.accessDenied(bucket: bucket, reason: "the credentials were refused (InvalidAccessKeyId)")) {
            try await client.download(bucket: bucket, key: "k", eTag: nil, to: file, progress: nil)
        }
    }
}

/// Temporary credentials from moto's STS: the session token is sent, signed and checked.
@Suite("temporary credentials on a server that checks signatures")
struct TemporaryCredentialsTests {
    @Test("temporary credentials with their session token are accepted; without it or with another they are refused")
    func sessionToken() async throws {
        let server = try await MotoServer.authenticating()
        let bucket = try await Fixtures.bucket("session", on: server)
        let temporary = try await server.temporaryCredentials()
        #expect(temporary.sessionToken != nil)
        let client = server.client(credentials: temporary)
        try await client.put(bucket: bucket, key: "k", data: Data("temporary".utf8), contentType: nil)
        #expect(try await client.bytes(bucket: bucket, key: "k", range: nil, ifMatch: nil) == Data("temporary".utf8))

        var otherToken = temporary
        otherToken.sessionToken = "not-the-token"
        await #expect(throws: S3Error.accessDenied(bucket: bucket, reason: "the credentials were refused (InvalidToken)")) {
            try await server.client(credentials: otherToken).bytes(bucket: bucket, key: "k", range: nil, ifMatch: nil)
        }
        var noToken = temporary
        noToken.sessionToken = nil
        await #expect(throws: S3Error.self) {
            try await server.client(credentials: noToken).bytes(bucket: bucket, key: "k", range: nil, ifMatch: nil)
        }
    }
}
