import Foundation

/// A wall-clock date and time as EXIF records it: no time zone of its own (see
/// ``ExifMetadata/offsetTimeOriginal``), validated to be a real calendar date at a plausible year.
public struct ExifDateTime: Sendable, Hashable, CustomStringConvertible {
    /// Years a photograph can plausibly carry: from the first photograph (1826) to 2100.
    public static let plausibleYears = 1826...2100

    /// The year, within ``plausibleYears``.
    public let year: Int
    /// The month, 1...12.
    public let month: Int
    /// The day of the month, valid for ``month`` and ``year``.
    public let day: Int
    /// The hour, 0...23.
    public let hour: Int
    /// The minute, 0...59.
    public let minute: Int
    /// The second, 0...59.
    public let second: Int
    /// The fraction of a second, in `0..<1`, when known.
    public let subsecond: Double?

    /// A validated date and time; `nil` unless the date exists in the Gregorian calendar, the
    /// year is in ``plausibleYears``, the time is within a day and `subsecond` within `0..<1`.
    public init?(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, subsecond: Double? = nil) {
        guard Self.plausibleYears.contains(year), (1...12).contains(month),
              (1...Self.daysInMonth(month, year: year)).contains(day),
              (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else { return nil }
        if let subsecond, !(0..<1).contains(subsecond) { return nil }
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.subsecond = subsecond
    }

    /// Parses EXIF date-time text `"YYYY:MM:DD HH:MM:SS"`, also accepting `-` between the date
    /// fields, `T` before the time, and a fraction `".123"` after the seconds. Trailing NULs and
    /// spaces are ignored. `subsecondDigits` is the matching SubSecTime tag (e.g. `"042"`),
    /// used when the text itself carries no fraction. Blank, zeroed, junk or impossible dates
    /// give `nil`.
    public init?(exifString: String, subsecondDigits: String? = nil) {
        let text = Array(exifString.utf8.reversed().drop { $0 == 0 || $0 == UInt8(ascii: " ") }.reversed())
        guard text.count >= 19, [UInt8(ascii: ":"), UInt8(ascii: "-")].contains(text[4]), text[7] == text[4],
              [UInt8(ascii: " "), UInt8(ascii: "T")].contains(text[10]),
              text[13] == UInt8(ascii: ":"), text[16] == UInt8(ascii: ":"),
              let year = ASCIIDigits.number(text[0..<4]), let month = ASCIIDigits.number(text[5..<7]),
              let day = ASCIIDigits.number(text[8..<10]), let hour = ASCIIDigits.number(text[11..<13]),
              let minute = ASCIIDigits.number(text[14..<16]), let second = ASCIIDigits.number(text[17..<19])
        else { return nil }
        let subsecond: Double?
        if text.count > 19 {
            guard text[19] == UInt8(ascii: "."), let fraction = Self.fraction(text[20...]) else { return nil }
            subsecond = fraction
        } else {
            subsecond = subsecondDigits.flatMap { Self.fraction(Array($0.utf8).filter { $0 != 0 && $0 != UInt8(ascii: " ") }) }
        }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second, subsecond: subsecond)
    }

    /// The EXIF text `"YYYY:MM:DD HH:MM:SS"` (without the subsecond).
    public var exifString: String {
        func pad(_ value: Int, _ width: Int) -> String {
            String(repeating: "0", count: max(0, width - String(value).count)) + String(value)
        }
        return "\(pad(year, 4)):\(pad(month, 2)):\(pad(day, 2)) \(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
    }

    /// The EXIF text, as ``exifString``.
    public var description: String { exifString }

    /// The instant this wall time denotes at `offsetSeconds` east of UTC. A missing offset
    /// reads the floating time as UTC.
    public func date(offsetSeconds: Int?) -> Date {
        let days = Self.daysSince1970(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - (offsetSeconds ?? 0)
        return Date(timeIntervalSince1970: Double(seconds) + (subsecond ?? 0))
    }

    /// Whether this wall time, read at `offsetSeconds` (UTC when `nil`), lies after `now`.
    /// Pass `now` plus any tolerance, e.g. a day for clocks set to the wrong time zone.
    public func isInFuture(relativeTo now: Date, offsetSeconds: Int? = nil) -> Bool {
        date(offsetSeconds: offsetSeconds) > now
    }

    private static func fraction(_ digits: some Collection<UInt8>) -> Double? {
        guard ASCIIDigits.number(digits) != nil else { return nil }
        return Double("0." + String(decoding: digits, as: UTF8.self))
    }

    private static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the given Gregorian date (H. Hinnant's `days_from_civil`).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
