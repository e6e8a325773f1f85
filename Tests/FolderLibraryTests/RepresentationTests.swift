import AssetsKit
import FolderLibrary
import Testing

@Suite("AssetsLibrary's fixed representations")
struct RepresentationTests {
    static let photo = PixelSize(width: 4000, height: 3000)

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

    @Test("each representation is rendered from its bounds and content mode")
    func bounds() {
        #expect(Representation.squareThumbnail.bounds == PixelSize(width: 150, height: 150) && Representation.squareThumbnail.contentMode == .fill)
        #expect(Representation.aspectRatioThumbnail.bounds == PixelSize(width: 256, height: 256) && Representation.aspectRatioThumbnail.contentMode == .fit)
        #expect(Representation.fullScreen.bounds == PixelSize(width: 2048, height: 2048))
        #expect(Representation.fullResolution.bounds == .maximum)
    }
}
