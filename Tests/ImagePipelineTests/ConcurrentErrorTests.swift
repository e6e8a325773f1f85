import AssetsKit
import Foundation
import ImagePipeline
import Synchronization
import Testing
import TestSupport

/// libvips keeps one error buffer per process; each failing decode must still report its own reason.
@Suite("Concurrent failing decodes each report their own file's reason")
struct ConcurrentErrorTests {
    /// Damaged files whose decoders fail with different messages.
    static let files = [
        "D_hostile/exiv2__issue_1815_poc.jpg", "D_hostile/jhead__poc2.jpg", "D_hostile/jhead__poc3.jpg",
        "D_hostile/exiv2__cve_2017_1000126_stack-oob-read.webp", "D_hostile/pillow__decompression_bomb.gif",
        "D_hostile/pheif__corrupted.hif", "D_hostile/pheif__truncated.heic",
    ].map(Corpus.file)

    private static func failure(of file: URL, _ renderer: ImageRenderer) -> String {
        do {
            let result = try renderer.render(file, size: PixelSize(width: 64, height: 64), mode: .fit, format: .jpeg, quality: 80)
            return "rendered \(result.pixelSize)"
        } catch {
            return "\(error)"
        }
    }

    @Test("eight rounds of all of them at once give each file the reason it gets alone")
    func ownReasons() {
        let renderer = ImageRenderer()
        let alone = Self.files.map { Self.failure(of: $0, renderer) }
        #expect(Set(alone).count == alone.count, "the files fail with different messages: \(alone)")
        let rounds = 8, count = Self.files.count
        let together = Mutex([String](repeating: "", count: rounds * count))
        DispatchQueue.concurrentPerform(iterations: rounds * count) { index in
            let failure = Self.failure(of: Self.files[index % count], renderer)
            together.withLock { $0[index] = failure }
        }
        for (index, failure) in together.withLock({ $0 }).enumerated() {
            #expect(failure == alone[index % count], "\(Self.files[index % count].lastPathComponent)")
        }
    }
}
