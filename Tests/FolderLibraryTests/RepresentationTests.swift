import AssetsKit
import FolderLibrary
import Testing

@Suite("AssetsLibrary's representation rule")
struct RepresentationTests {
    static let photo = PixelSize(width: 4000, height: 3000)

    /// The original rule, written out: (target, expected representation, degraded).
    static let table: [(PixelSize, Representation, Bool)] = [
        (PixelSize(width: 100, height: 100), .squareThumbnail, true),
        (PixelSize(width: 149, height: 149), .squareThumbnail, true),
        (PixelSize(width: 150, height: 100), .aspectRatioThumbnail, false),   // not smaller than the square's side
        (PixelSize(width: 100, height: 150), .aspectRatioThumbnail, false),
        (PixelSize(width: 255, height: 191), .aspectRatioThumbnail, false),  // aspect thumbnail is 256x192
        (PixelSize(width: 255, height: 192), .fullScreen, false),
        (PixelSize(width: 256, height: 100), .fullScreen, false),
        (PixelSize(width: 1024, height: 768), .fullScreen, false),
        (PixelSize(width: 5000, height: 5000), .fullScreen, false),
        (.maximum, .fullResolution, false),
    ]

    @Test("targets map to representations as in the original", arguments: table)
    func rule(_ target: PixelSize, _ expected: Representation, _ degraded: Bool) {
        let answer = Representation.answering(target, original: Self.photo)
        #expect(answer.representation == expected)
        #expect(answer.isDegraded == degraded)
    }

    @Test("representation sizes: 150 square, 256 longest side, fits 2048, never enlarged")
    func sizes() {
        #expect(Representation.squareThumbnail.pixelSize(forOriginal: Self.photo) == PixelSize(width: 150, height: 150))
        #expect(Representation.aspectRatioThumbnail.pixelSize(forOriginal: Self.photo) == PixelSize(width: 256, height: 192))
        #expect(Representation.fullScreen.pixelSize(forOriginal: Self.photo) == PixelSize(width: 2048, height: 1536))
        #expect(Representation.fullResolution.pixelSize(forOriginal: Self.photo) == Self.photo)
        let tiny = PixelSize(width: 40, height: 80)
        #expect(Representation.squareThumbnail.pixelSize(forOriginal: tiny) == PixelSize(width: 40, height: 40))
        #expect(Representation.fullScreen.pixelSize(forOriginal: tiny) == tiny)
    }

    @Test("a portrait photo compares against its own thumbnail sides")
    func portrait() {
        let portrait = Self.photo.transposed // aspect thumbnail 192x256
        #expect(Representation.answering(PixelSize(width: 191, height: 255), original: portrait).representation == .aspectRatioThumbnail)
        #expect(Representation.answering(PixelSize(width: 200, height: 200), original: portrait).representation == .fullScreen)
    }
}
