import AssetsKit
import Foundation
@testable import ImagePipeline
import Testing
import TestSupport

@Suite("HEIF thumbnail items: a HEIC's fast image is its thumbnail, the primary image is not decoded")
struct HEIFThumbnailTests {
    /// 64x64 primary image (item 6) with a 32x32 thumbnail item (item 7).
    static let withThumbnail = "E_formats/pheif__zPug_3.heic"
    /// 300x200, no thumbnail item.
    static let withoutThumbnail = "E_formats/exiv2__Stonehenge.heic"
    let fast = ImageRequest(targetSize: PixelSize(width: 256, height: 256), contentMode: .fill, deliveryMode: .fastFormat)

    @Test("fast delivery of a HEIC with a thumbnail item answers that thumbnail, with no render")
    func fastDeliveryIsTheThumbnail() async throws {
        let manager = CachingImageManager()
        let source = try await TestSources.source(Self.withThumbnail)
        var results: [ImageResult] = []
        for try await result in manager.image(for: source, request: fast) { results.append(result) }
        #expect(results.map(\.source) == [.embeddedThumbnail])
        #expect(results.first?.pixelSize == PixelSize(width: 32, height: 32))
        #expect(await manager.renderCount == 0)
    }

    @Test("the thumbnail comes out of a file whose primary image cannot be decoded: only the thumbnail is decoded")
    func primaryNotDecoded() throws {
        // The primary image's coded bytes (item 6 of the file's iloc box: offset 10796, 3116
        // bytes) overwritten; the thumbnail's (item 7, right after) left as they are.
        var bytes = try Data(contentsOf: Corpus.file(Self.withThumbnail))
        bytes.replaceSubrange(10796..<(10796 + 3116), with: Data(repeating: 0xFF, count: 3116))
        let folder = TestSources.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let damaged = folder.appendingPathComponent("damaged.heic")
        try bytes.write(to: damaged)
        let renderer = ImageRenderer()
        #expect(throws: ImagePipelineError.self) {
            try renderer.fullResolution(damaged, format: .jpeg, quality: 80)
        }
        let thumbnail = try #require(try renderer.heifThumbnail(damaged, format: .jpeg, quality: 80))
        #expect(thumbnail.pixelSize == PixelSize(width: 32, height: 32))
        #expect(thumbnail.isDegraded)
    }

    @Test("a HEIC without a thumbnail item has no quick image: fast delivery renders it once")
    func noThumbnailItem() async throws {
        #expect(try ImageRenderer().heifThumbnail(Corpus.file(Self.withoutThumbnail), format: .jpeg, quality: 80) == nil)
        let manager = CachingImageManager()
        let source = try await TestSources.source(Self.withoutThumbnail)
        var results: [ImageResult] = []
        for try await result in manager.image(for: source, request: fast) { results.append(result) }
        #expect(results.map(\.source) == [.rendered])
        #expect(await manager.renderCount == 1)
    }
}
