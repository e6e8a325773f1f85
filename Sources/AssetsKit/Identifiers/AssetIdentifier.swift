import Foundation

/// The identifier of an asset, in either of the two forms a library hands out.
///
/// ``FolderLibrary`` names assets with ``LegacyAssetURL``s, an indexed library with
/// ``LocalIdentifier``s. Both carry the same UUID for the same file, so ``uuid`` is what
/// lookups compare. Encoded as its string.
public enum AssetIdentifier: Sendable, Hashable, Codable, CustomStringConvertible {
    case local(LocalIdentifier)
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

    public var description: String {
        switch self {
        case .local(let id): id.description
        case .legacy(let url): url.description
        }
    }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let identifier = AssetIdentifier(string: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "not an asset identifier: \(text)"))
        }
        self = identifier
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
