/// The order a picker hands its picks over in.
public enum PickOrder: String, Sendable, Hashable, Codable, CaseIterable {
    /// The order the person picked them in.
    case pick
    /// By creation date, oldest first (the assets' order in a chronological album).
    case date
}
