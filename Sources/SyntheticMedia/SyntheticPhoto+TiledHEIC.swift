import CVipsShim
import Foundation
import ImagePipeline

extension SyntheticPhoto {
    /// The photo as a camera stores a large one in HEIC: a grid of `tileSize`-pixel HEVC tiles
    /// (hidden items, the edge ones padded) laid out by the primary `grid` item, which carries
    /// the transformations a viewer applies: `rotation` quarter turns anticlockwise (`irot`),
    /// then a mirror about `mirrorAxis` (`imir`, 0 or 1; `nil` for none), in that order.
    ///
    /// Tiles are encoded with x265's fastest preset: a 200-MP photo takes about a minute of
    /// CPU. The stored pixels are the scene as drawn (``orientation`` must be 1: the grid's
    /// own transformations turn it).
    public func encodedAsTiledHEIC(tileSize: Int = 512, quality: Int = 80, rotation: Int = 0, mirrorAxis: Int? = nil) throws -> Data {
        precondition(orientation == 1, "a tiled HEIC is turned by its irot and imir, not by EXIF")
        return try VipsErrorScope.run {
            let image = try stored(scale: nil)
            var buffer: UnsafeMutableRawPointer?
            var length = 0
            guard cvips_heif_grid_write(image.pointer, Int32(tileSize), Int32(tileSize), Int32(quality), Int32(rotation),
                                        Int32(mirrorAxis ?? -1), &buffer, &length) == 0, let buffer else {
                throw ImagePipelineError.encodingFailed(reason: Vips.takeError())
            }
            return Data(bytesNoCopy: buffer, count: length, deallocator: .custom { pointer, _ in cvips_free(pointer) })
        }
    }
}
