import AssetsKit
import Foundation
import Testing
import TestSupport
@testable import assets_picker

/// The commands' text (without `--json`) reads as sentences with rounded numbers.
@Suite("human output reads as sentences with rounded numbers")
struct SentenceOutputTests {
    @Test("sizes and numbers are rounded to what a reader needs")
    func readableNumbers() {
        #expect(ReadableNumber.byteCount(812) == "812 bytes")
        #expect(ReadableNumber.byteCount(80_998) == "79 KB")
        #expect(ReadableNumber.byteCount(2_516_582) == "2.4 MB")
        #expect(ReadableNumber.byteCount(327_155_712) == "312 MB")
        #expect(ReadableNumber.decimal(151.21529999999998, places: 4) == "151.2153")
        #expect(ReadableNumber.decimal(29.97002997, places: 2) == "29.97")
        #expect(ReadableNumber.decimal(30.0, places: 2) == "30")
        #expect(ReadableNumber.count(100_000) == "100,000" && ReadableNumber.count(999) == "999" && ReadableNumber.count(1_234_567) == "1,234,567")
        #expect(ReadableNumber.count(1, "photo", "photos") == "1 photo" && ReadableNumber.count(1_000, "photo", "photos") == "1,000 photos")
    }

    @Test("index's summary: what changed, in words; previews said only when there is something to say")
    func indexReport() {
        var scan = ScanSummary()
        scan.scanned = 12_345
        scan.added = 1_200
        scan.removed = 2
        scan.failed = [ScanFailure(path: "a.jpg", reason: "truncated")]
        #expect(IndexReport.scanSentence(path: "/p", scan) == "Indexed /p: 12,345 photos and videos; 1,200 new, 2 gone from the folder; 1 could not be read (below).")
        #expect(IndexReport.previewSentence(nil, scan: scan)?.contains("index --previews") == true)
        var unchanged = ScanSummary()
        unchanged.scanned = 1
        #expect(IndexReport.scanSentence(path: "/p", unchanged) == "Indexed /p: 1 photo or video; nothing changed since the last index.")
        #expect(IndexReport.previewSentence(nil, scan: unchanged) == nil)
        var previews = PreviewSummary()
        #expect(IndexReport.previewSentence(previews, scan: unchanged) == "Previews: every photo has one.")
        previews.made = 3
        #expect(IndexReport.previewSentence(previews, scan: unchanged) == "Previews: 3 made.")
    }

    @Test("changes, drafts and assets on an indexed library: sentences, the token said once, sizes in KB")
    func changeCommandsSpeakInSentences() async throws {
        let root = try makeScratchFolder().appendingPathComponent("library", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for name in ["goexif__sample1.jpg", "jhead__sony.jpg"] {
            try FileManager.default.copyItem(at: Corpus.file("A_camera_exif/\(name)"), to: root.appendingPathComponent(name))
        }
        func run(_ arguments: [String]) async throws -> [String] {
            let result = try await CLI.run(arguments + ["--library", root.path])
            #expect(result.status == 0, "\(result)")
            return result.stdoutText.split(separator: "\n").map(String.init)
        }
        #expect(try await CLI.run(["index", "--library", root.path]).status == 0)

        let albums = try await run(["albums"])
        #expect(albums.first == "The albums of \(root.standardizedFileURL.path) (indexed library): title, photos and videos, kind, id.", "\(albums)")
        #expect(albums.dropFirst().first?.contains("  camera roll  smart:all") == true, "kinds in words: \(albums)")
        #expect(albums.contains { $0.contains("  smart album  smart:favorites") }, "\(albums)")

        let listed = try await run(["assets"])
        #expect(listed.count == 2, "\(listed)")
        for line in listed {
            #expect(line.contains(" KB  "), "sizes rounded: \(line)")
            #expect(line.range(of: #"\d{4,} B"#, options: .regularExpression) == nil, "no raw byte counts: \(line)")
        }
        let photo = try #require(listed.first?.split(separator: " ").last.map(String.init))

        let created = try await run(["album", "create", "Trip"])
        #expect(created.count == 2, "\(created)")
        #expect(created.first?.hasPrefix("New album or folder: album:") == true, "\(created)")
        let token = try #require(created.last?.firstMatch(of: /^Done; the library's change token is now (\d+) \(`assets-picker changes --since \1` will list what changes after this\)\.$/)?.1)

        #expect(try await run(["favorite", "--asset", photo]).count == 1)
        let changes = try await run(["changes", "--since", String(token)])
        let first = try #require(changes.first)
        #expect(first.hasPrefix("Since change token \(token): 1 asset changed; the library is now at token "), "\(changes)")
        #expect(changes.contains("  In smart:favorites: 1 added."), "\(changes)")
        let everything = try await run(["changes", "--since", "0"])
        #expect(everything.first?.hasPrefix("Since change token 0: 2 assets added") == true, "\(everything)")
        #expect(everything.contains { $0.hasPrefix("  In album:") && $0.hasSuffix(": the album itself changed.") }, "\(everything)")

        #expect(try await run(["draft", "save", "picks", "--asset", photo]) == ["Saved 1 pick as the draft picks."])
        let loaded = try await run(["draft", "load", "picks"])
        #expect(loaded.first == "The draft picks holds 1 pick, in pick order:", "\(loaded)")
    }
}
