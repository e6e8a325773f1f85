import Foundation

/// A one-line progress bar, drawn only when stdout is a terminal (never into a pipe or file).
struct TerminalProgress: Sendable {
    let label: String
    let isEnabled: Bool = isatty(STDOUT_FILENO) == 1

    func update(done: Int, failed: Int, total: Int) {
        guard isEnabled else { return }
        let width = 30
        let filled = total == 0 ? width : min(width, done * width / max(1, total))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let failures = failed > 0 ? ", \(failed) failed" : ""
        FileHandle.standardOutput.write(Data("\r\(label) \(bar) \(done)/\(total)\(failures)".utf8))
    }

    func finish() {
        guard isEnabled else { return }
        FileHandle.standardOutput.write(Data("\n".utf8))
    }
}
