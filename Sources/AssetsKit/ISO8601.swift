import Foundation

/// ISO 8601 dates as the project writes them: `2004-03-30T10:43:46Z`, or with the offset the
/// camera recorded, `2019-10-14T17:00:20+02:00`.
public enum ISO8601 {
    /// Formats `date` in the time zone `offset` seconds east of UTC (UTC when `nil`).
    public static func string(from date: Date, offset: Int?) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: offset ?? 0) ?? TimeZone(secondsFromGMT: 0)!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let stamp = String(format: "%04d-%02d-%02dT%02d:%02d:%02d",
                           c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
        guard let offset else { return stamp + "Z" }
        let sign = offset < 0 ? "-" : "+"
        let minutes = abs(offset) / 60
        return stamp + String(format: "%@%02d:%02d", sign, minutes / 60, minutes % 60)
    }

    /// Parses the forms ``string(from:offset:)`` writes (and fractional seconds).
    public static func date(from text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
