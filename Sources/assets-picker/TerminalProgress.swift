import Foundation

/// A one-line progress bar on stderr, drawn only when stderr is a terminal (never into a pipe or
/// file), so it never mixes with what a command prints on stdout (`--json` above all).
struct TerminalProgress: Sendable {
    let label: String
    let isEnabled: Bool = isatty(STDERR_FILENO) == 1

    /// Draws the bar at `done` of `total` (empty while nothing is known to be done, so a bar
    /// of nothing to do reads `0/0`, not full).
    func update(done: Int, failed: Int, total: Int) {
        guard isEnabled else { return }
        FileHandle.standardError.write(Data("\r\(Self.line(label: label, done: done, failed: failed, total: total))".utf8))
    }

    /// Ends the bar's line.
    func finish() {
        guard isEnabled else { return }
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
