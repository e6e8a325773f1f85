import AssetsKit
import Foundation

/// One version of one asset's original file: the asset, the file's size and its modification
/// time to the nanosecond. Part of every ``RenditionKey``.
public struct SourceVersion: Sendable, Hashable {
    /// Who the asset is: its UUID when its key is one (every library's), else the key's text.
    /// A UUID is kept as one, so that naming an asset's rendition (a server does it for every
    /// request it answers from memory) makes no string and hashes 16 bytes.
    private enum Identity: Sendable, Hashable {
        case uuid(UUID)
        case name(String)
    }

    private let identity: Identity
    public var byteSize: Int64
    /// Nanoseconds since 1970.
    public var modificationTime: Int64

    /// The version of the asset named `assetKey` (its UUID's text for a library's asset).
    public init(assetKey: String, byteSize: Int64, modificationTime: Int64) {
        identity = UUID(uuidString: assetKey).map(Identity.uuid) ?? .name(assetKey)
        self.byteSize = byteSize
        self.modificationTime = modificationTime
    }

    /// The version of `asset`'s original its library read: the version of the source the
    /// library gives for it (``ImageSourceFile/init(asset:original:)``).
    public init(_ asset: Asset) {
        identity = .uuid(asset.id.uuid)
        byteSize = asset.byteSize
        modificationTime = Self.nanoseconds(asset.modificationDate)
    }

    /// The asset's name: its UUID as text (upper case), or the key it was made with.
    public var assetKey: String {
        switch identity {
        case .uuid(let uuid): uuid.uuidString
        case .name(let name): name
        }
    }

    /// `date` in whole nanoseconds since 1970.
    public static func nanoseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1e9).rounded())
    }
}
