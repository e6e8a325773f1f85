import Foundation

/// Why running an external tool failed before it could give an answer.
///
/// A tool that runs and exits with a non-zero status is not an error at this level: the caller
/// reads ``ToolOutput/terminationStatus`` and ``ToolOutput/standardError`` and decides.
public enum ToolError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The executable is not on `PATH`.
    case notFound(tool: String, installHint: String)
    /// The executable was found but the system would not start it.
    case launchFailed(tool: String, reason: String)
    /// The tool ran longer than allowed and was stopped.
    case timedOut(tool: String, seconds: Double)

    public var description: String {
        switch self {
        case let .notFound(tool, installHint):
            "\(tool) not found: \(installHint)"
        case let .launchFailed(tool, reason):
            "\(tool) could not be started: \(reason)"
        case let .timedOut(tool, seconds):
            "\(tool) did not finish within \(String(format: "%g", seconds)) s and was stopped"
        }
    }
}
