import AssetsKit
import CVipsShim
import Foundation

extension ImageRenderer {
    /// Whether `header` is of a HEIF file (HEIC or AVIF), told by libvips' loader, which looked
    /// at the bytes.
    static func isHEIF(_ header: ImageHeader) -> Bool {
        header.format == "heif" || header.format == "avif"
    }

    /// A thumbnail of a grid HEIF image (a camera's large photo) decoded one tile at a time:
    /// `nil` when the file is not one (a single image, alpha, a crop, a thumbnail item libvips
    /// would take), for libvips to decode. libheif 1.15, under libvips, decodes a grid whole:
    /// ~1.3 GB for 200 MP, where this holds a tile and the reduced image.
    func heifGridThumbnail(_ url: URL, box: PixelSize, crop: Bool) throws -> VipsImageHandle? {
        var image: OpaquePointer?
        let status = cvips_heif_grid_thumbnail(url.path, Int32(clamping: box.width), Int32(clamping: box.height), crop ? 1 : 0, &image)
        if status == 1 { return nil }
        guard status == 0, let image else {
            throw ImagePipelineError.undecodable(file: url.path, reason: Vips.takeError())
        }
        return VipsImageHandle(image)
    }

    /// The whole grid HEIF image at `url`, upright, encoded to JPEG as its tiles are decoded, a
    /// row of tiles at a time (`nil` when it is not a grid image, as for
    /// ``heifGridThumbnail(_:box:crop:)``). The encoded bytes are handed over without a copy.
    func heifGridFullResolution(_ url: URL, quality: Int) throws -> ImageResult? {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        var width: Int32 = 0, height: Int32 = 0
        let status = cvips_heif_grid_jpeg(url.path, Int32(quality), &buffer, &length, &width, &height)
        if status == 1 { return nil }
        guard status == 0, let buffer else {
            throw ImagePipelineError.undecodable(file: url.path, reason: Vips.takeError())
        }
        let data = Data(bytesNoCopy: buffer, count: length, deallocator: .custom { pointer, _ in cvips_free(pointer) })
        return ImageResult(data: data, format: .jpeg, pixelSize: PixelSize(width: Int(width), height: Int(height)),
                           isDegraded: false, source: .fullResolution)
    }
}
