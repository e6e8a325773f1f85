import Foundation
import Synchronization

/// A one-line progress bar on stderr, drawn only when stderr is a terminal (never into a pipe or
/// file), so it never mixes with what a command prints on stdout (`--json` above all).
///
/// Nothing is drawn until there is something to do: work of no items leaves the terminal as it
/// was, with no bar at `0/0`.
final class TerminalProgress: Sendable {
    let label: String
    let isEnabled: Bool
    /// Whether the bar has been drawn (so ``finish()`` ends its line).
    private let drawn = Mutex(false)

    /// A bar named `label`, drawn when stderr is a terminal.
    init(label: String, isEnabled: Bool = isatty(STDERR_FILENO) == 1) {
        self.label = label
        self.isEnabled = isEnabled
    }

    /// Draws the bar at `done` of `total` (empty while nothing is done); nothing while `total` is 0.
    func update(done: Int, failed: Int, total: Int) {
        guard isEnabled, total > 0 else { return }
        drawn.withLock { $0 = true }
        FileHandle.standardError.write(Data("\r\(Self.line(label: label, done: done, failed: failed, total: total))".utf8))
    }

    /// Ends the bar's line, if a bar was drawn.
    func finish() {
        guard isEnabled, drawn.withLock({ $0 }) else { return }
        FileHandle.standardError.write(Data("\n".utf8))
    }

    /// The bar's text: the label, 30 cells filled in proportion, `done/total` and the failures.
    static func line(label: String, done: Int, failed: Int, total: Int) -> String {
        let width = 30
        let filled = total <= 0 ? 0 : min(width, done * width / total)
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let failures = failed > 0 ? ", \(failed) failed" : ""
        return "\(label) \(bar) \(done)/\(total)\(failures)"
    }
}
