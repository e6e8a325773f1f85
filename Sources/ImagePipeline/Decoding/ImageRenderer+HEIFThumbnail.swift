import AssetsKit
import CVipsShim
import Foundation

extension ImageRenderer {
    /// The thumbnail item of a HEIF file (iPhones store a 320x240 one beside every photo),
    /// upright and encoded, marked degraded; `nil` when the file has none. Only the thumbnail is
    /// decoded, never the primary image: a few milliseconds where the photo takes ~0.7 s.
    public func heifThumbnail(_ url: URL, format: ImageFormat, quality: Int) throws -> ImageResult? {
        try VipsErrorScope.run {
            try Vips.start()
            var image: OpaquePointer?
            let status = cvips_heif_thumbnail(url.path, configuration.strictness.rawValue, &image)
            if status == 1 { return nil }
            guard status == 0, let image else {
                throw ImagePipelineError.undecodable(file: url.path, reason: Vips.takeError())
            }
            let thumbnail = VipsImageHandle(image)
            if thumbnail.pixelSize.area > configuration.maxPixels {
                throw ImagePipelineError.tooManyPixels(file: url.path, pixels: thumbnail.pixelSize.area, limit: configuration.maxPixels)
            }
            var result = try encode(thumbnail, format: format, quality: quality,
                                    source: .embeddedThumbnail, file: url.path)
            result.isDegraded = true
            return result
        }
    }
}
