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
    /// Whether the bar has been drawn (so ``finish()`` ends its line), and the length of the last
    /// line drawn (a shorter one is padded over it).
    private let drawn = Mutex((isDrawn: false, length: 0))

    /// A bar named `label`, drawn when stderr is a terminal.
    init(label: String, isEnabled: Bool = isatty(STDERR_FILENO) == 1) {
        self.label = label
        self.isEnabled = isEnabled
    }

    /// Draws the bar at `done` of `total` (empty while nothing is done), followed by `detail`
    /// (what is under way) when given; nothing while `total` is 0.
    func update(done: Int, failed: Int, total: Int, detail: String? = nil) {
        guard isEnabled, total > 0 else { return }
        var line = Self.line(label: label, done: done, failed: failed, total: total) + (detail.map { " · " + $0 } ?? "")
        drawn.withLock { drawn in
            let length = line.count
            if length < drawn.length { line += String(repeating: " ", count: drawn.length - length) }
            drawn = (true, length)
        }
        FileHandle.standardError.write(Data("\r\(line)".utf8))
    }

    /// Ends the bar's line, if a bar was drawn.
    func finish() {
        guard isEnabled, drawn.withLock({ $0.isDrawn }) else { return }
        FileHandle.standardError.write(Data("\n".utf8))
    }

    /// A transfer's part of a line: `IMG_0001.JPG ████░░░░░░ 1.2 MB of 5.0 MB`, the bar 10 cells.
    static func transfer(_ name: String, received: Int64, total: Int64) -> String {
        let width = 10
        let filled = total <= 0 ? width : Int(min(Int64(width), received * Int64(width) / total))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        return "\(name) \(bar) \(ReadableNumber.byteCount(received)) of \(ReadableNumber.byteCount(total))"
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
