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
    /// Whether the original is kept elsewhere and not on this machine now (a cloud badge on the
    /// page): opening it large fetches it first.
    let remoteOriginal: Bool

    /// The asset as the page shows it; `remoteOriginal` when its original is not on this machine.
    init(_ asset: Asset, remoteOriginal: Bool = false) {
        id = asset.id.uuid.uuidString
        localIdentifier = asset.id.localIdentifier.description
        filename = asset.filename
        mediaType = asset.mediaType
        pixelWidth = asset.pixelSize.width
        pixelHeight = asset.pixelSize.height
        creationDate = ISO8601.string(from: asset.creationDate, offset: asset.timeZoneOffset)
        byteSize = asset.byteSize
        duration = asset.duration
        self.remoteOriginal = remoteOriginal
    }

    /// `assets` as the page shows them, which of their originals are not on this machine asked
    /// of `library` once for them all (``AssetsKit/RemoteOriginals``).
    static func items(_ assets: [Asset], library: any PhotoLibrary) async throws -> [ItemResource] {
        guard let remote = library.remoteOriginals, !assets.isEmpty else { return assets.map { ItemResource($0) } }
        let local = try await remote.localOriginals(of: assets)
        return assets.map { ItemResource($0, remoteOriginal: !local.contains($0.id)) }
    }
}
