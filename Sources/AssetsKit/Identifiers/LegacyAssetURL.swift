import Foundation

/// An AssetsLibrary-style asset URL: `assets-library://asset/asset.JPG?id=UUID&ext=JPG`.
///
/// `FolderLibrary` names its assets this way. The UUID is the same one the asset gets as a
/// ``LocalIdentifier`` once it is indexed, so stored legacy URLs can be migrated.
public struct LegacyAssetURL: Sendable, Hashable, CustomStringConvertible {
    /// The asset's UUID, shared with its ``LocalIdentifier``.
    public let uuid: UUID
    /// The file extension, upper-cased as AssetsLibrary wrote it (`JPG`, `PNG`, `MOV`).
    public let fileExtension: String

    /// The URL of the asset with `uuid` whose file has `fileExtension` (upper-cased here).
    public init(uuid: UUID, fileExtension: String) {
        self.uuid = uuid
        self.fileExtension = fileExtension.uppercased()
    }

    /// Parses a legacy URL; `nil` when the text is not one (wrong scheme or host, no valid
    /// `id`, an `ext` that is not 1–10 letters or digits, or disagreeing extensions).
    public init?(string: String) {
        guard let components = URLComponents(string: string),
              components.scheme?.lowercased() == "assets-library",
              components.host?.lowercased() == "asset",
              let items = components.queryItems,
              let idText = items.first(where: { $0.name == "id" })?.value,
              let uuid = UUID(uuidString: idText),
              let ext = items.first(where: { $0.name == "ext" })?.value,
              Self.isValidExtension(ext)
        else { return nil }
        let path = components.path
        guard path.hasPrefix("/asset."), path.dropFirst("/asset.".count).uppercased() == ext.uppercased() else {
            return nil
        }
        self.init(uuid: uuid, fileExtension: ext)
    }

    /// The URL text.
    public var description: String {
        "assets-library://asset/asset.\(fileExtension)?id=\(uuid.uuidString)&ext=\(fileExtension)"
    }

    /// The identifier the same asset has in an indexed library.
    public var localIdentifier: LocalIdentifier { LocalIdentifier(uuid: uuid) }

    private static func isValidExtension(_ text: String) -> Bool {
        (1...10).contains(text.count) && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
}
