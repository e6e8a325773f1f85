import Foundation

/// Text for a terminal or a log line with what could act on them made visible: control
/// characters (a newline that would forge a line, an escape sequence that would move the
/// cursor or retitle the window), DEL, the C1 controls and the bidirectional overrides (which
/// reorder what a reader sees) are written as `\n`, `\t`, `\r` or `\u{XX}`. File names and
/// titles come from anyone who can write into a library.
enum PrintableText {
    /// `text` with every such character escaped; other text unchanged.
    static func escaping(_ text: some StringProtocol) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return String(text) }
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where needsEscape(scalar): escaped += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}

/// Prints `line` of a command's human output, its control characters escaped (``PrintableText``).
func say(_ line: String) {
    print(PrintableText.escaping(line))
}
