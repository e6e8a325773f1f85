import Foundation

/// The text of an HTTP `Date` header (IMF-fixdate, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`), made
/// again only when the second changes.
struct HTTPDate {
    private var second = time_t(-1)
    private var text = ""

    /// The current time's text.
    mutating func now() -> String {
        var clock = time(nil)
        guard clock != second else { return text }
        var parts = tm()
        gmtime_r(&clock, &parts)
        second = clock
        text = Self.format(parts)
        return text
    }

    static func format(_ parts: tm) -> String {
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
