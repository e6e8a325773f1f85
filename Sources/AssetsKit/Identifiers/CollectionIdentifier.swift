/// The identifier of a collection (album, smart album, folder or directory group).
///
/// Opaque to callers: a library makes them and accepts them back.
public struct CollectionIdentifier: Sendable, Hashable, Codable, RawRepresentable, CustomStringConvertible {
    /// The identifier as the library wrote it.
    public let rawValue: String

    /// The identifier with this text.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The identifier with this text.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// The identifier as the library wrote it.
    public var description: String { rawValue }

    /// Decodes an identifier from its string.
    public init(from decoder: Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the identifier as its string.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
