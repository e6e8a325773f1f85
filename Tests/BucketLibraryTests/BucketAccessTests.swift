import AssetsKit
@testable import BucketLibrary
import Foundation
import IndexedLibrary
import S3Storage
import S3TestSupport
import Testing
import TestSupport

/// Who may read the bucket is found by really listing it; a refusal is one clear line.
@Suite("access to a bucket")
struct BucketAccessTests {
    @Test("wrong credentials: the scan stops with one line saying so, no secret in it, and the library is denied with that reason")
    func wrongCredentials() async throws {
        let server = try await MotoServer.authenticating()
        let fixture = try await BucketFixture.make("denied", prefix: "", server: server)
        defer { fixture.remove() }
        try await fixture.put(corpus: "A_camera_exif/jhead__hp.jpg", at: "hp.jpg")
        for credentials in [S3Credentials(accessKeyID: "AKIAUNKNOWNKEY000000", secretAccessKey: "never-printed-secret-1"),
                            S3Credentials(accessKeyID: server.credentials.accessKeyID, secretAccessKey: "never-printed-secret-2")] {
            let library = try fixture.library(fixture.store(credentials: credentials))
            var failure: (any Error)?
            do { try await library.scan() } catch { failure = error }
            let line = "\(try #require(failure))"
            #expect(line.contains("credentials were refused"), "\(line)")
            #expect(!line.contains("\n") && !line.contains("never-printed"), "\(line)")
            #expect(await library.requestAuthorization() == .denied)
            #expect(library.folderAuthorization.denialReason?.contains("credentials were refused") == true)
            #expect(try await library.assetCount(in: library.cameraRoll().id, filter: .all) == 0, "nothing recorded against the files")
        }
    }

    @Test("a bucket that answers is read-only; an unreachable one is denied with the reason")
    func authorization() async throws {
        let fixture = try await BucketFixture.make("access")
        defer { fixture.remove() }
        let library = try fixture.library(fixture.store())
        #expect(await library.authorizationStatus() == .notDetermined)
        #expect(await library.requestAuthorization() == .restricted)
        #expect(library.changing == nil && library.isWritable == false)
        let dead = try fixture.library(fixture.store("dead", endpoint: URL(string: "http://127.0.0.1:1")!), name: "dead")
        #expect(await dead.requestAuthorization() == .denied)
        #expect(dead.folderAuthorization.denialReason?.contains("unreachable") == true, "\(dead.folderAuthorization.denialReason ?? "")")
    }
}
