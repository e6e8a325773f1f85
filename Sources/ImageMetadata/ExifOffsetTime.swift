/// The EXIF 2.31 offset-time text (`"+02:00"`, `"-05:30"`) as seconds east of UTC.
enum ExifOffsetTime {
    /// Seconds east of UTC for `"±HH:MM"`, or `nil` for blank, malformed or out-of-range text.
    static func seconds(parsing text: String) -> Int? {
        let characters = Array(text.utf8)
        guard characters.count == 6, characters[3] == UInt8(ascii: ":"),
              let hours = ASCIIDigits.number(characters[1...2]),
              let minutes = ASCIIDigits.number(characters[4...5]),
              hours <= 14, minutes <= 59 else { return nil }
        let magnitude = hours * 3600 + minutes * 60
        switch characters[0] {
        case UInt8(ascii: "+"): return magnitude
        case UInt8(ascii: "-"): return -magnitude
        default: return nil
        }
    }

    /// `"±HH:MM"` for an offset in seconds east of UTC, rounded to the minute; `nil` beyond ±14 hours.
    static func text(forSeconds seconds: Int) -> String? {
        let totalMinutes = (Double(seconds) / 60).rounded()
        guard abs(totalMinutes) <= 14 * 60 else { return nil }
        let minutes = Int(abs(totalMinutes))
        let sign = totalMinutes < 0 ? "-" : "+"
        return sign + twoDigitText(minutes / 60) + ":" + twoDigitText(minutes % 60)
    }

    private static func twoDigitText(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
