import AssetsKit
import CVipsShim
import Foundation
import ImagePipeline

/// Photograph-like images made from nothing, for the demo library and benchmarks: soft noise
/// at several scales over a sky-to-ground gradient, so they compress like photos, with a large
/// label in the upper-left so a wrong orientation shows.
public struct SyntheticPhoto: Sendable {
    /// The upright size.
    public var size: PixelSize
    /// Varies the texture and colours.
    public var seed: Int
    public var label: String?
    /// The EXIF orientation the stored pixels are meant to be shown with: they are stored
    /// turned so that applying this orientation makes them upright again.
    public var orientation: Int

    public init(size: PixelSize, seed: Int, label: String? = nil, orientation: Int = 1) {
        self.size = size
        self.seed = seed
        self.label = label
        self.orientation = orientation
    }

    /// The stored pixels, encoded (no metadata: add EXIF with `ExifWriter`).
    public func encoded(as format: SyntheticFormat, quality: Int = 90) throws -> Data {
        try VipsErrorScope.run { try encode(stored(scale: nil), as: format, quality: quality) }
    }

    /// A small JPEG of the same picture, stored the same way: what a camera embeds as the EXIF
    /// thumbnail.
    public func embeddedThumbnail(longestSide: Int = 160, quality: Int = 80) throws -> Data {
        try VipsErrorScope.run { try encode(stored(scale: longestSide), as: .jpeg, quality: quality) }
    }

    func stored(scale longestSide: Int?) throws -> VipsImageHandle {
        try Vips.start()
        var scene: OpaquePointer?
        let status = (label ?? "").withCString { text in
            cvips_generate_scene(Int32(size.width), Int32(size.height), Int32(truncatingIfNeeded: seed), text, &scene)
        }
        guard status == 0, let scene else { throw ImagePipelineError.encodingFailed(reason: Vips.takeError()) }
        var image = VipsImageHandle(scene)
        if let longestSide {
            var small: OpaquePointer?
            guard cvips_thumbnail_image(image.pointer, Int32(longestSide), Int32(longestSide), &small) == 0, let small else {
                throw ImagePipelineError.encodingFailed(reason: Vips.takeError())
            }
            image = VipsImageHandle(small)
        }
        guard orientation != 1 else { return image }
        var turned: OpaquePointer?
        guard cvips_apply_orientation(image.pointer, Int32(Self.inverse(of: orientation)), &turned) == 0, let turned else {
            throw ImagePipelineError.encodingFailed(reason: Vips.takeError())
        }
        return VipsImageHandle(turned)
    }

    private func encode(_ image: VipsImageHandle, as format: SyntheticFormat, quality: Int) throws -> Data {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        let status: Int32 = switch format {
        case .jpeg: cvips_save_jpeg(image.pointer, Int32(quality), 0, &buffer, &length)
        case .webp: cvips_save_webp(image.pointer, Int32(quality), &buffer, &length)
        case .png: cvips_save_png(image.pointer, &buffer, &length)
        }
        guard status == 0, let buffer else { throw ImagePipelineError.encodingFailed(reason: Vips.takeError()) }
        defer { cvips_free(buffer) }
        return Data(bytes: buffer, count: length)
    }

    /// The orientation whose transform undoes `orientation`'s: the quarter turns swap, the
    /// rest are their own inverse.
    static func inverse(of orientation: Int) -> Int {
        switch orientation {
        case 6: 8
        case 8: 6
        default: orientation
        }
    }
}

/// The formats synthetic photos are written in.
public enum SyntheticFormat: String, Sendable, CaseIterable {
    case jpeg, png, webp
}
