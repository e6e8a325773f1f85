import Foundation

/// Which assets a fetch returns, and in what order.
public struct FetchOptions: Sendable, Hashable {
    /// Which media types to include.
    public var mediaFilter: MediaFilter
    /// Creation-date order.
    public var sortOrder: DateOrder
    /// At most this many assets (`nil`: no limit).
    public var limit: Int?
    /// Skip this many assets first.
    public var offset: Int
    /// For a user album: list its members in the album's own order (as arranged by adding and
    /// reordering) instead of by creation date; ``sortOrder`` is then not used. Collections
    /// without an order of their own ignore it.
    public var albumOrder: Bool

    /// Options for a fetch; by default every asset, newest first, no limit. A negative offset counts as 0.
    public init(mediaFilter: MediaFilter = .all, sortOrder: DateOrder = .newestFirst,
                limit: Int? = nil, offset: Int = 0, albumOrder: Bool = false) {
        self.mediaFilter = mediaFilter
        self.sortOrder = sortOrder
        self.limit = limit
        self.offset = max(0, offset)
        self.albumOrder = albumOrder
    }
}

/// Order by creation date. Ties are broken by identifier, in the same direction, so the
/// order is total and stable and one order is exactly the other reversed.
public enum DateOrder: String, Sendable, Hashable, Codable, CaseIterable {
    /// The most recent first.
    case newestFirst = "newest"
    /// The oldest first.
    case oldestFirst = "oldest"
}
