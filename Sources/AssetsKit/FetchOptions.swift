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

    public init(mediaFilter: MediaFilter = .all, sortOrder: DateOrder = .newestFirst,
                limit: Int? = nil, offset: Int = 0) {
        self.mediaFilter = mediaFilter
        self.sortOrder = sortOrder
        self.limit = limit
        self.offset = max(0, offset)
    }
}

/// Order by creation date. Ties are broken by identifier, in the same direction, so the
/// order is total and stable and one order is exactly the other reversed.
public enum DateOrder: String, Sendable, Hashable, Codable, CaseIterable {
    case newestFirst = "newest"
    case oldestFirst = "oldest"
}
