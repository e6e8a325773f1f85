import Foundation

/// What a finished external tool left behind: its exit status and what it wrote.
public struct ToolOutput: Sendable, Hashable {
    /// The exit status, or the signal number when ``wasSignalled`` is `true`.
    public var terminationStatus: Int32
    /// Whether the tool was ended by a signal rather than exiting.
    public var wasSignalled: Bool
    /// Everything the tool wrote to standard output.
    public var standardOutput: Data
    /// The end of what the tool wrote to standard error (bounded, so a chatty tool cannot
    /// exhaust memory), decoded leniently as UTF-8.
    public var standardError: String

    /// Creates an output value.
    public init(terminationStatus: Int32, wasSignalled: Bool, standardOutput: Data, standardError: String) {
        self.terminationStatus = terminationStatus
        self.wasSignalled = wasSignalled
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    /// Whether the tool exited normally with status 0.
    public var succeeded: Bool { !wasSignalled && terminationStatus == 0 }
}
