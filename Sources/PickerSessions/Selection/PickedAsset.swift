import AssetsKit
import Foundation

/// What a selection keeps of a picked asset: what its rules and orders use, and no more, so that
/// a selection kept in a database holds the same values as one kept in memory. Whatever else a
/// route needs of the asset (its pixels, its original, its capture details) it reads from the
/// library by ``uuid``.
public struct PickedAsset: Sendable, Hashable {
    /// The asset's UUID (its local identifier's).
    public let uuid: UUID
    /// Photo or video: what the session's media filter looks at.
    public let mediaType: MediaType
    /// The original's size in bytes: what the picks' total adds up.
    public let byteSize: Int64
    /// When it was taken: what the ``PickOrder/date`` order sorts by.
    public let creationDate: Date
    /// Its file name, for a refusal to name it.
    public let filename: String

    /// A picked asset with these values.
    public init(uuid: UUID, mediaType: MediaType, byteSize: Int64, creationDate: Date, filename: String) {
        self.uuid = uuid
        self.mediaType = mediaType
        self.byteSize = byteSize
        self.creationDate = creationDate
        self.filename = filename
    }

    /// What a selection keeps of `asset`.
    public init(_ asset: Asset) {
        self.init(uuid: asset.id.uuid, mediaType: asset.mediaType, byteSize: asset.byteSize,
                  creationDate: asset.creationDate, filename: asset.filename)
    }
}
