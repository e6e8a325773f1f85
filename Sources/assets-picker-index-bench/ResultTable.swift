/// The benchmark's answer: one row per metric, with its target and whether it was met.
struct ResultTable {
    struct Row {
        let metric: String
        let value: String
        let target: String
        /// `nil` for a figure reported without a target.
        let passed: Bool?
    }

    private(set) var rows: [Row] = []

    /// A metric where lower is better, in milliseconds.
    mutating func atMost(_ metric: String, milliseconds value: Double, target: Double) {
        rows.append(Row(metric: metric, value: Self.format(value) + " ms", target: "≤ " + Self.format(target) + " ms", passed: value <= target))
    }

    /// Any metric: its formatted value and target.
    mutating func add(_ metric: String, value: String, target: String, passed: Bool?) {
        rows.append(Row(metric: metric, value: value, target: target, passed: passed))
    }

    func render() -> String {
        let widths = [max(6, rows.map(\.metric.count).max() ?? 0), max(5, rows.map(\.value.count).max() ?? 0),
                      max(6, rows.map(\.target.count).max() ?? 0)]
        func line(_ cells: [String]) -> String {
            (zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) } + [cells[3]]).joined(separator: "  ")
        }
        var lines = [line(["metric", "value", "target", "result"]), String(repeating: "-", count: widths.reduce(12, +) + 4)]
        for row in rows {
            lines.append(line([row.metric, row.value, row.target, row.passed.map { $0 ? "pass" : "FAIL" } ?? "-"]))
        }
        return lines.joined(separator: "\n")
    }

    static func format(_ value: Double) -> String {
        value >= 100 ? String(format: "%.0f", value) : value >= 10 ? String(format: "%.1f", value) : String(format: "%.2f", value)
    }
}
