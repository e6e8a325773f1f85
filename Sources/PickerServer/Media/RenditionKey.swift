import AssetsKit
import Foundation

/// What names one final rendition: one version of one original (identity, byte size,
/// modification time) at one size, cut, format and quality. The delivery mode is not part of
/// it: the final rendition answers every mode.
struct RenditionKey: Hashable, Sendable {
    var asset: UUID
    var byteSize: Int64
    var modified: Date
    var width: Int
    var height: Int
    var mode: ContentMode
    var format: ImageFormat
    var quality: Int

    init(asset: UUID, byteSize: Int64, modified: Date, width: Int, height: Int, mode: ContentMode, format: ImageFormat, quality: Int) {
        self.asset = asset
        self.byteSize = byteSize
        self.modified = modified
        self.width = width
        self.height = height
        self.mode = mode
        self.format = format
        self.quality = quality
    }

    /// The key of `asset`'s current version rendered as `query` asks.
    init(_ asset: Asset, _ query: ImageQuery) {
        self.init(asset: asset.id.uuid, byteSize: asset.byteSize, modified: asset.modificationDate, width: query.width,
                  height: query.height, mode: query.mode, format: query.format, quality: query.quality)
    }
}
