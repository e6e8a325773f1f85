import AssetsKit
import Foundation

/// An asset as the picker page's API shows it: the keys of the CLI's `assets --json`, with the asset's UUID
/// as its `id` (safe in a URL path) and its library identifier beside it.
struct ItemResource: Encodable, Sendable {
    let id: String
    let localIdentifier: String
    let filename: String
    let mediaType: MediaType
    let pixelWidth: Int
    let pixelHeight: Int
    let creationDate: String
    let byteSize: Int64
    let duration: Double?

    init(_ asset: Asset) {
        id = asset.id.uuid.uuidString
        localIdentifier = asset.id.localIdentifier.description
        filename = asset.filename
        mediaType = asset.mediaType
        pixelWidth = asset.pixelSize.width
        pixelHeight = asset.pixelSize.height
        creationDate = ISO8601.string(from: asset.creationDate, offset: asset.timeZoneOffset)
        byteSize = asset.byteSize
        duration = asset.duration
    }
}
