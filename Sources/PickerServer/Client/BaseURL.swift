import Foundation

/// A picked item's `baseUrl`: `/v1/media/{sessionId}/{itemId}/{expiry}`, to which a client
/// appends `=w…-h…`, `=d` or `=dv` as the Google Photos Picker API's clients do.
///
/// It works only for an item picked in that session, while the session lives, and for 60 minutes
/// from the listing that gave it (its expiry, in Unix seconds, is the last segment). The
/// expiry is not a secret: the URL needs the client key as well, and the key's holder may list
/// again for a new one; a later expiry than any listing could have given is refused.
struct BaseURL: Equatable {
    /// How long a base URL works after it was listed.
    static let lifetime: TimeInterval = 3_600

    let sessionID: String
    let itemID: String
    /// Unix seconds after which it no longer works.
    let expiry: Int64
    /// What the client appended after `=`: `w100-h100-c`, `d`, `dv`, or empty.
    let parameters: String

    /// The path of the base URL of `itemID` in `sessionID` listed at `now`.
    static func path(sessionID: String, itemID: String, listedAt now: Date) -> String {
        "/v1/media/\(sessionID)/\(itemID)/\(Int64(now.timeIntervalSince1970 + lifetime))"
    }

    /// The base URL named by the route's `session`, `item` and last segment (`{expiry}` or
    /// `{expiry}={parameters}`); `nil` when the last segment is not one.
    init?(sessionID: String, itemID: String, lastSegment: String) {
        let parts = lastSegment.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard let digits = parts.first, (1...12).contains(digits.count), digits.allSatisfy(\.isASCII),
              let expiry = Int64(digits) else { return nil }
        self.sessionID = sessionID
        self.itemID = itemID
        self.expiry = expiry
        parameters = parts.count == 2 ? String(parts[1]) : ""
    }

    /// Whether it still works at `now`: before its expiry, and with no expiry later than a listing at `now` gives.
    func isCurrent(at now: Date) -> Bool {
        let seconds = now.timeIntervalSince1970
        return Double(expiry) > seconds && Double(expiry) <= seconds + Self.lifetime + 1
    }
}
