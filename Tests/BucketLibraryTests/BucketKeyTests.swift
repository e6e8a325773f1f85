import AssetsKit
@testable import BucketLibrary
import Foundation
import IndexedLibrary
import S3Storage
import S3TestSupport
import Testing
import TestSupport

/// Keys become paths on this machine (where originals are kept once fetched): what cannot be a
/// safe path is passed over with a reason; hidden and non-media objects are ignored as on a folder;
/// hostile files are refused as the same files in a folder are.
@Suite("keys as paths, and hostile objects")
struct BucketKeyTests {
    @Test("unsafe keys are passed over with a reason, hidden and non-media ones ignored, safe ones indexed")
    func unsafeKeys() async throws {
        let fixture = try await BucketFixture.make("keys")
        defer { fixture.remove() }
        let photo = try Data(contentsOf: Corpus.file("A_camera_exif/jhead__hp.jpg"))
        let long = String(repeating: "n", count: 300) + ".jpg"
        try await fixture.put([
            "ok/photo.jpg": photo,
            "ok/../escape.jpg": photo,
            "./dot.jpg": photo,
            "a//b.jpg": photo,
            "/leading.jpg": photo,
            "ok/\(long)": photo,
            "ok/.hidden.jpg": photo,
            ".hidden/inside.jpg": photo,
            "ok/notes.txt": Data("text".utf8),
            "clash.jpg": photo,
            "clash.jpg/inner.jpg": photo,
            "ok/": Data(),
        ])
        let library = try fixture.library(fixture.store())
        let summary = try await library.scan()
        let reasons = Dictionary(summary.failed.map { ($0.path, $0.reason) }, uniquingKeysWith: { first, _ in first })
        #expect(Set(try await library.assetsByPath().keys) == ["ok/photo.jpg", "clash.jpg/inner.jpg"])
        #expect(reasons["ok/../"]?.contains("lead out of its folder") == true, "\(reasons)")
        #expect(reasons["./"]?.contains("lead out of its folder") == true, "\(reasons)")
        #expect(reasons["a//"]?.contains("empty name") == true, "\(reasons)")
        #expect(reasons["/"]?.contains("empty name") == true, "\(reasons)")
        #expect(reasons["ok/\(long)"]?.contains("255") == true, "\(reasons)")
        #expect(reasons["clash.jpg"]?.contains("same name") == true, "\(reasons)")
        #expect(summary.failed.count == 6, "\(summary.failed)")
    }

    @Test("names a file system cannot hold or that lead elsewhere are refused; dot-names hidden")
    func names() {
        #expect(ObjectName.judge("IMG_0001.JPG", isFolder: false) == .accepted)
        #expect(ObjectName.judge("été 2024", isFolder: true) == .accepted)
        #expect(ObjectName.judge(".DS_Store", isFolder: false) == .ignored)
        #expect(ObjectName.judge("", isFolder: false) == .ignored)
        for name in ["", ".", "..", "a\u{0}b", String(repeating: "é", count: 128), "bad\u{FFFD}.jpg"] {
            guard case .refused = ObjectName.judge(name, isFolder: true) else {
                Issue.record("\(name.debugDescription) was not refused")
                continue
            }
        }
    }

    @Test("a bucket of the corpus's hostile files gets the same refusals as the same files in a folder")
    func hostileFiles() async throws {
        let fixture = try await BucketFixture.make("hostile")
        defer { fixture.remove() }
        var files: [String: Data] = [:]
        for file in Corpus.files(in: "D_hostile") { files["hostile/" + file.lastPathComponent] = try Data(contentsOf: file) }
        try await fixture.put(files)
        let library = try fixture.library(fixture.store())
        let summary = try await library.scan()
        let twin = try await fixture.localTwin()
        let local = try await twin.scan()
        let place = "s3://\(fixture.bucket)/\(fixture.prefix)", folder = twin.rootURL.path + "/"
        let refusals = summary.failed.map { "\($0.path): \($0.reason.replacingOccurrences(of: place, with: "<library>/"))" }.sorted()
        let localRefusals = local.failed.map { "\($0.path): \($0.reason.replacingOccurrences(of: folder, with: "<library>/"))" }.sorted()
        #expect(!refusals.isEmpty)
        #expect(refusals == localRefusals)
        #expect(Set(try await library.assetsByPath().keys) == Set(try await twin.assetsByPath().keys))
        for refusal in refusals { #expect(!refusal.contains("\n") && !refusal.contains("/.partial/"), "\(refusal)") }
    }
}
