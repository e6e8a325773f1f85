import Foundation

/// Numbers as a person reads them in a command's text: rounded to what matters (the `--json`
/// documents keep them exact).
enum ReadableNumber {
    /// `79 KB`, `2.4 MB`, `312 MB`, `1.2 GB` (binary units, as `export` prints them).
    static func byteCount(_ bytes: Int64) -> String {
        let units = ["KB", "MB", "GB", "TB"]
        guard bytes >= 1024 else { return bytes == 1 ? "1 byte" : "\(bytes) bytes" }
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return "\(Self.decimal(value, places: value < 10 ? 1 : 0)) \(units[unit])"
    }

    /// `1,234,567`: an exact count, its thousands set apart.
    static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return (value < 0 ? "-" : "") + grouped
    }

    /// `1 photo`, `1,234 photos`: a count with the noun it counts, singular or plural.
    static func count(_ value: Int, _ singular: String, _ plural: String) -> String {
        "\(count(value)) \(value == 1 ? singular : plural)"
    }

    /// `value` with at most `places` decimals, trailing zeros dropped (`29.97`, `30`, `0.2`).
    static func decimal(_ value: Double, places: Int) -> String {
        var text = String(format: "%.\(places)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }
}
