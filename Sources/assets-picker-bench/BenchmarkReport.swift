import Foundation

/// What a benchmark run found: facts about the machine and corpus, then sections of timed
/// rows, each row optionally compared with peers against a target ratio.
///
/// Printed as aligned text (`name | value unit | comparisons`) or as one JSON document. A new
/// kind of measurement is a new ``Section``; a section's ``Section/unit`` says what its values
/// are (e.g. `ms/image`, `ms`, `MiB`).
struct BenchmarkReport: Encodable {
    /// Facts about the run, in the order they are printed, e.g. `("cores", "2")`.
    var header: [Fact] = []
    var sections: [Section] = []

    /// One named fact of the header.
    struct Fact: Encodable {
        var name: String
        var value: String
    }

    /// A group of rows measured the same way.
    struct Section: Encodable {
        var title: String
        var unit: String
        var rows: [Row] = []
        /// How the rows were measured, printed under them.
        var notes: [String] = []
    }

    /// One measured value, the target it must meet itself (if any), and how it compares.
    struct Row: Encodable {
        var name: String
        var value: Double
        /// A bound on ``value`` itself, in the section's unit.
        var target: Target?
        /// Whether ``value`` meets ``target``; `nil` without one.
        var passed: Bool?
        /// Secondary measurements printed after the value, e.g. the wall time beside CPU time.
        var details: [Detail]
        var comparisons: [Comparison]

        init(name: String, value: Double, target: Target? = nil, details: [Detail] = [], comparisons: [Comparison] = []) {
            self.name = name
            self.value = value
            self.target = target
            passed = target?.isMet(by: value)
            self.details = details
            self.comparisons = comparisons
        }
    }

    /// A secondary measurement of a row, e.g. `wall 97.1 ms`.
    struct Detail: Encodable {
        var name: String
        var value: Double
        var unit: String

        var text: String { name + " " + BenchmarkReport.format(value) + (unit.isEmpty ? "" : " " + unit) }
    }

    /// A ratio of a row's value to a peer's, and the target it must meet, if any.
    struct Comparison: Encodable {
        /// What the ratio is against, e.g. `vipsthumbnail`.
        var peer: String
        var ratio: Double
        var target: Target?
        /// Whether the ratio meets the target; `nil` without one.
        var passed: Bool?

        init(peer: String, ratio: Double, target: Target? = nil) {
            self.peer = peer
            self.ratio = ratio
            self.target = target
            passed = target?.isMet(by: ratio)
        }
    }

    /// A bound a value or ratio must stay under (`atMost`) or reach (`atLeast`).
    struct Target: Encodable {
        enum Direction: String, Codable { case atMost, atLeast }
        var direction: Direction
        var bound: Double

        static func atMost(_ bound: Double) -> Target { Target(direction: .atMost, bound: bound) }
        static func atLeast(_ bound: Double) -> Target { Target(direction: .atLeast, bound: bound) }

        func isMet(by value: Double) -> Bool {
            switch direction {
            case .atMost: value <= bound
            case .atLeast: value >= bound
            }
        }

        /// E.g. `target ≤ 0.75x`, with `unit` after the bound.
        func text(unit: String) -> String {
            "target " + (direction == .atMost ? "≤" : "≥") + " " + String(format: "%g", bound) + unit
        }
    }

    // MARK: - Text

    /// The report as aligned text.
    var text: String {
        let nameWidth = sections.flatMap(\.rows).map(\.name.count).max() ?? 0
        let factWidth = header.map(\.name.count).max() ?? 0
        var lines = header.map { $0.name.padding(toLength: factWidth, withPad: " ", startingAt: 0) + "  " + $0.value }
        for section in sections {
            lines += ["", section.title]
            let values = section.rows.map { Self.format($0.value) }
            let valueWidth = values.map(\.count).max() ?? 0
            for (row, value) in zip(section.rows, values) {
                var line = "  " + row.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
                    + " | " + String(repeating: " ", count: valueWidth - value.count) + value + " " + section.unit
                if let target = row.target, let passed = row.passed {
                    line += " (" + target.text(unit: " " + section.unit) + ") " + Self.mark(passed)
                }
                if !row.details.isEmpty {
                    line += " (" + row.details.map(\.text).joined(separator: ", ") + ")"
                }
                if !row.comparisons.isEmpty {
                    line += " | " + row.comparisons.map(\.text).joined(separator: "; ")
                }
                lines.append(line)
            }
            lines += section.notes.map { "  · " + $0 }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func mark(_ passed: Bool) -> String { passed ? "✓" : "✗" }

    /// One decimal from 100 up, two from 1, three below, five below 0.01 (sub-microsecond milliseconds).
    static func format(_ value: Double) -> String {
        value >= 100 ? String(format: "%.1f", value) : value >= 1 ? String(format: "%.2f", value)
            : abs(value) >= 0.01 || value == 0 ? String(format: "%.3f", value) : String(format: "%.5f", value)
    }
}

extension BenchmarkReport.Comparison {
    /// E.g. `0.62x vipsthumbnail (target ≤ 0.75x) ✓`.
    var text: String {
        var text = String(format: "%.2fx ", ratio) + peer
        if let target, let passed {
            text += " (" + target.text(unit: "x") + ") " + BenchmarkReport.mark(passed)
        }
        return text
    }
}
