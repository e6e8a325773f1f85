/// Why a picker session refused a request.
public enum PickerSessionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The session has ended (Done, Cancel), expired or was deleted: picking is over.
    case notPicking
    /// The server holds as many sessions as it will.
    case tooManySessions(Int)

    public var description: String {
        switch self {
        case .notPicking: "This picker session has ended."
        case .tooManySessions(let capacity): "The server already holds \(capacity) picker sessions; delete finished ones or wait for them to expire."
        }
    }
}
