/// Where a picker session is in its life.
public enum PickerSessionState: String, Sendable, Hashable, Codable {
    /// The person is picking; the picker URI works.
    case picking
    /// The person pressed Done: the picks are set and the picker URI no longer works.
    case complete
    /// The person pressed Cancel: the session is complete with no picks.
    case cancelled
}
