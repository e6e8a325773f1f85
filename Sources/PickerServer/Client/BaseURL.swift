import Foundation

/// A picked item's `baseUrl`: `/v1/media/{sessionId}/{itemId}/{expiry}`, to which a client
/// appends `=w…-h…`, `=d` or `=dv` as the Google Photos Picker API's clients do.
///
/// It works only for an item picked in that session, while the session lives, and for 60 minutes
/// from the listing that gave it (its expiry, in Unix seconds, is the last segment). The
/// expiry is not a secret: the URL needs the client key as well, and the key's holder may list
/// again for a new one; an expiry later than the latest one the server gave for the session
/// (one edited into the URL) is refused (the latest is kept with the session in its store, for every server).
struct BaseURL: Equatable {
    /// How long a base URL works after it was listed.
    static let lifetime: TimeInterval = 3_600

    let sessionID: String
    let itemID: String
    /// Unix seconds after which it no longer works.
    let expiry: Int64
    /// What the client appended after `=`: `w100-h100-c`, `d`, `dv`, or empty.
    let parameters: String

    /// The expiry of the base URLs listed at `now`.
    static func expiry(listedAt now: Date) -> Int64 {
        Int64(now.timeIntervalSince1970 + lifetime)
    }

    /// The path of the base URL of `itemID` in `sessionID` that expires at `expiry`.
    static func path(sessionID: String, itemID: String, expiry: Int64) -> String {
        "/v1/media/\(sessionID)/\(itemID)/\(expiry)"
    }

    /// The base URL named by the route's `session`, `item` and last segment (`{expiry}` or
    /// `{expiry}={parameters}`); `nil` when the last segment is not one.
    init?(sessionID: String, itemID: String, lastSegment: String) {
        let parts = lastSegment.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard let digits = parts.first, digits.utf8.count <= 12, let expiry = DecimalText.wholeNumber(String(digits)) else { return nil }
        self.sessionID = sessionID
        self.itemID = itemID
        self.expiry = Int64(expiry)
        parameters = parts.count == 2 ? String(parts[1]) : ""
    }
}
