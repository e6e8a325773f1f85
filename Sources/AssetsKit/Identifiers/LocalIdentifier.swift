import Foundation

/// A PhotoKit-style local identifier: `9C5EF6C3-0E1C-4F05-B592-CED2203EFE0F/L0/001`.
public struct LocalIdentifier: Sendable, Hashable, CustomStringConvertible {
    /// The asset's UUID, shared with its ``LegacyAssetURL``.
    public let uuid: UUID

    /// The local identifier of the asset with `uuid`.
    public init(uuid: UUID) {
        self.uuid = uuid
    }

    /// Parses `UUID/L0/001`; `nil` for anything else.
    public init?(string: String) {
        let parts = string.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[1] == "L0", parts[2] == "001",
              let uuid = UUID(uuidString: String(parts[0])) else { return nil }
        self.init(uuid: uuid)
    }

    /// The identifier's text form, `UUID/L0/001`.
    public var description: String { "\(uuid.uuidString)/L0/001" }

    /// The legacy URL an AssetsLibrary-era client stored for this asset.
    public func legacyURL(fileExtension: String) -> LegacyAssetURL {
        LegacyAssetURL(uuid: uuid, fileExtension: fileExtension)
    }
}
