import Foundation

/// The two ways S3 writes a time: ISO 8601 in XML (`2013-05-24T00:00:00.000Z`) and the HTTP
/// date in headers (`Fri, 24 May 2013 00:00:00 GMT`).
enum HTTPDate {
    private static var utcCalendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }

    /// `2013-05-24T00:00:00.000Z` or `2013-05-24T00:00:00Z`.
    static func iso8601(_ text: String) -> Date? {
        let parts = text.split(whereSeparator: { "-T:Z.".contains($0) })
        guard parts.count >= 6, text.hasSuffix("Z"), let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              let hour = Int(parts[3]), let minute = Int(parts[4]), let second = Int(parts[5]) else { return nil }
        var fraction = 0.0
        if parts.count > 6, let value = Double("0.\(parts[6])") { fraction = value }
        return date(year, month, day, hour, minute, second).map { $0 + fraction }
    }

    /// `Fri, 24 May 2013 00:00:00 GMT` (RFC 7231's preferred form).
    static func rfc1123(_ text: String) -> Date? {
        let words = text.split(separator: " ")
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard words.count == 6, words[5] == "GMT", let day = Int(words[1]),
              let month = months.firstIndex(of: String(words[2])), let year = Int(words[3]) else { return nil }
        let time = words[4].split(separator: ":")
        guard time.count == 3, let hour = Int(time[0]), let minute = Int(time[1]), let second = Int(time[2]) else { return nil }
        return date(year, month + 1, day, hour, minute, second)
    }

    private static func date(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int) -> Date? {
        guard (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute),
              (0...60).contains(second) else { return nil }
        return utcCalendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second))
    }
}
