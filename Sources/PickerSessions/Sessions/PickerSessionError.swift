/// Why a picker session refused a request.
public enum PickerSessionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The session has ended (Done, Cancel), expired or was deleted: picking is over.
    case notPicking
    /// The server holds as many sessions as it will.
    case tooManySessions(Int)
    /// The person has as many sessions of their own alive as the store keeps.
    case tooManyOwnSessions(Int)

    public var description: String {
        switch self {
        case .notPicking: "This picker session has ended."
        case .tooManySessions: "The server holds as many picker sessions as it may; delete finished ones or wait for them to expire."
        case .tooManyOwnSessions(let capacity): "You have \(capacity) sessions of your own open, the most the server keeps; delete one or wait for one to expire."
        }
    }
}
