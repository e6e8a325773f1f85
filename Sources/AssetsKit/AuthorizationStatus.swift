/// Whether this process may use a library, found by really trying.
public enum AuthorizationStatus: String, Sendable, Hashable, Codable {
    /// Nobody asked yet: call ``PhotoLibrary/requestAuthorization()``.
    case notDetermined
    /// The library can be read but not changed (read-only media, no write permission).
    case restricted
    /// The library cannot be read (missing, or no permission).
    case denied
    /// The library can be read and changed.
    case authorized

    /// Whether assets can be listed and read.
    public var allowsReading: Bool { self == .restricted || self == .authorized }
}
