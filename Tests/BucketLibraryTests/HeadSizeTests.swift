@testable import BucketLibrary
import Foundation
import Testing
import TestSupport

/// How many bytes of each corpus file a metadata read looks at, as ``ObjectLayout`` tells them:
/// the measurement behind `BucketOriginalsStore.headBytes`, and the check that the formats read
/// from their head are read so.
@Suite("the head of an object: what a metadata read needs, measured on the corpus")
struct HeadSizeTests {
    /// What a layout asks of a file, starting from `head` bytes, each range read as asked (or,
    /// with `widening`, as ``ObjectHeadReader`` widens it).
    struct Need {
        var ranges = 0
        var bytes: Int64 = 0
        /// The furthest byte the reads cover: a head this long would hold all of it.
        var furthest: Int64 = 0
        var isWhole = false
    }

    static func need(of file: URL, head: Int64, widening: Int64 = 0) throws -> Need {
        let data = try Data(contentsOf: file)
        var bytes = ObjectBytes(size: Int64(data.count))
        var need = Need()
        var next: Range<Int64>? = 0..<min(Int64(data.count), head)
        while let range = next {
            bytes.add(data.subdata(in: Int(range.lowerBound)..<Int(range.upperBound)), at: range.lowerBound)
            need.ranges += 1
            need.bytes += Int64(range.count)
            need.furthest = max(need.furthest, range.upperBound)
            guard need.ranges < 50 else { need.isWhole = true; break }
            switch ObjectLayout.verdict(bytes) {
            case .complete: next = nil
            case .whole: need.isWhole = true; next = nil
            case .needs(let wanted):
                let wider = wanted.lowerBound..<min(bytes.size, max(wanted.upperBound, wanted.lowerBound + widening))
                next = bytes.missing(in: wider) ?? wanted
            }
        }
        return need
    }

    /// The corpus's photos and videos, by folder, but the hostile ones.
    static let files: [URL] = ["A_camera_exif", "B_orientation", "C_pngsuite", "E_formats"].flatMap { Corpus.files(in: $0) }

    @Test("measured: the furthest byte each format's metadata needs (printed as a table)")
    func measure() throws {
        var rows: [String: [(String, Need)]] = [:]
        for file in Self.files {
            let need = try Self.need(of: file, head: 16)
            rows[file.pathExtension.lowercased(), default: []].append((file.lastPathComponent, need))
        }
        for (format, needs) in rows.sorted(by: { $0.key < $1.key }) {
            let vouched = needs.filter { !$0.1.isWhole }
            let furthest = vouched.map(\.1.furthest).sorted()
            let largest = vouched.max { $0.1.furthest < $1.1.furthest }
            print(String(format: "%-5@ files %3d  read whole %3d  furthest byte needed: median %7lld  max %7lld (%@)  bytes needed max %lld",
                         format as NSString, needs.count, needs.count - vouched.count, furthest.isEmpty ? 0 : furthest[furthest.count / 2],
                         furthest.last ?? 0, (largest?.0 ?? "-") as NSString, vouched.map(\.1.bytes).max() ?? 0))
        }
    }

    @Test("with the chosen head, every JPEG, PNG, HEIF, AVIF, still WebP and MP4/MOV/3GP of the corpus is read from ranges, in at most three")
    func chosenHeadSuffices() throws {
        let head = BucketOriginalsStore.headBytes
        let ranged: Set<String> = ["jpg", "jpeg", "png", "heic", "heif", "hif", "avif", "webp", "mp4", "mov", "3g2", "mpo"]
        for file in Self.files where ranged.contains(file.pathExtension.lowercased()) {
            let need = try Self.need(of: file, head: head, widening: 64 << 10)
            let isAnimation = file.lastPathComponent == "pillow__iss634.webp"
            #expect(need.isWhole == isAnimation, "\(file.lastPathComponent)")
            #expect(need.ranges <= 3, "\(file.lastPathComponent): \(need.ranges) ranges")
        }
    }
}
