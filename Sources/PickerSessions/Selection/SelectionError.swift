/// Why a change to a selection was refused; the selection is unchanged then.
public enum SelectionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The change would pick more than the maximum.
    case maximumReached(Int)
    /// The asset does not pass the picker's media filter.
    case notAllowed(filename: String)

    public var description: String {
        switch self {
        case .maximumReached(let maximum):
            "You can pick up to \(maximum) item\(maximum == 1 ? "" : "s"). Unselect one to pick another."
        case .notAllowed(let filename):
            "\(filename) cannot be picked here: this picker takes other media."
        }
    }
}
