import AssetsKit

/// What a client program asks of a picker session.
public struct PickerSessionSettings: Sendable, Hashable {
    /// The range a session's maximum must fall in.
    public static let maximumItemsRange = 1...2_000

    /// The most items the person may pick.
    public var maxItems: Int
    /// Which media the person may pick.
    public var mediaFilter: MediaFilter
    /// The order the client receives the picks in.
    public var order: PickOrder

    /// Settings for a session; `maxItems` must lie in ``maximumItemsRange``.
    public init(maxItems: Int = 2_000, mediaFilter: MediaFilter = .all, order: PickOrder = .pick) {
        self.maxItems = maxItems
        self.mediaFilter = mediaFilter
        self.order = order
    }
}
