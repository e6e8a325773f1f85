/// A duration as the Google APIs write one in JSON (`google.protobuf.Duration`): seconds with
/// up to nine fraction digits and the suffix `s`, e.g. `"5s"` or `"1799.5s"`.
enum DurationText {
    /// `seconds` written as a Duration string; negative durations are written as `"0s"`.
    static func string(seconds: Double) -> String {
        let nanos = Int64((max(0, seconds) * 1e9).rounded())
        let whole = nanos / 1_000_000_000, fraction = nanos % 1_000_000_000
        guard fraction != 0 else { return "\(whole)s" }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 9 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)s"
    }
}
