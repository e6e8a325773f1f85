import Foundation

/// The identifier of an asset, in either of the two forms a library hands out.
///
/// `FolderLibrary` names assets with ``LegacyAssetURL``s, an indexed library with
/// ``LocalIdentifier``s. Both carry the same UUID for the same file, so ``uuid`` is what
/// lookups compare. Encoded as its string.
public enum AssetIdentifier: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A PhotoKit-style local identifier, as an indexed library hands out.
    case local(LocalIdentifier)
    /// An AssetsLibrary-style asset URL, as the folder library hands out.
    case legacy(LegacyAssetURL)

    /// Parses either form; `nil` when the text is neither.
    public init?(string: String) {
        if let local = LocalIdentifier(string: string) {
            self = .local(local)
        } else if let legacy = LegacyAssetURL(string: string) {
            self = .legacy(legacy)
        } else {
            return nil
        }
    }

    /// The UUID both forms share.
    public var uuid: UUID {
        switch self {
        case .local(let id): id.uuid
        case .legacy(let url): url.uuid
        }
    }

    /// The identifier in the local (PhotoKit) form; a legacy URL is migrated.
    public var localIdentifier: LocalIdentifier { LocalIdentifier(uuid: uuid) }

    /// The identifier's text form, which ``init(string:)`` parses.
    public var description: String {
        switch self {
        case .local(let id): id.description
        case .legacy(let url): url.description
        }
    }

    /// Decodes an identifier from its string; either form.
    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let identifier = AssetIdentifier(string: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "not an asset identifier: \(text)"))
        }
        self = identifier
    }

    /// Encodes the identifier as its string.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
