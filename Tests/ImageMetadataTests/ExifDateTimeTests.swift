import Foundation
import ImageMetadata
import Testing

struct ExifDateTimeTests {
    @Test(arguments: ["2004:03:30 10:43:46", "2004-03-30 10:43:46", "2004:03:30T10:43:46", "2004-03-30T10:43:46",
                      "2004:03:30 10:43:46\0", "2004:03:30 10:43:46  "])
    func acceptedFormats(_ text: String) throws {
        let dateTime = try #require(ExifDateTime(exifString: text))
        #expect(dateTime.year == 2004 && dateTime.month == 3 && dateTime.day == 30)
        #expect(dateTime.hour == 10 && dateTime.minute == 43 && dateTime.second == 46)
        #expect(dateTime.subsecond == nil)
        #expect(dateTime.exifString == "2004:03:30 10:43:46")
    }

    @Test(arguments: ["0000:00:00 00:00:00", "    :  :     :  :  ", "", "junk", "05.10.2009 11:16",
                      "2004:02:30 10:00:00", "2003:02:29 10:00:00", "2004:13:01 10:00:00", "2004:03:30 24:00:00",
                      "2004:03:30 10:60:00", "2004:03:30 10:00:60", "1825:12:31 23:59:59", "2101:01:01 00:00:00",
                      "2106:12:23 17:13:31", "2004:03-30 10:43:46", "2004:03:30 10:43:46Z", "2004:03:30 10:43:4x"])
    func rejectedText(_ text: String) {
        #expect(ExifDateTime(exifString: text) == nil)
    }

    @Test func leapDayAndSubseconds() throws {
        #expect(ExifDateTime(exifString: "2000:02:29 00:00:00") != nil)
        #expect(ExifDateTime(exifString: "1900:02:29 00:00:00") == nil)
        #expect(try #require(ExifDateTime(exifString: "2020:01:01 10:00:00.25")).subsecond == 0.25)
        #expect(try #require(ExifDateTime(exifString: "2020:01:01 10:00:00", subsecondDigits: "042 ")).subsecond == 0.042)
        #expect(try #require(ExifDateTime(exifString: "2020:01:01 10:00:00", subsecondDigits: "  ")).subsecond == nil)
    }

    @Test func dateUsesTheOffsetOrReadsFloatingTimeAsUTC() throws {
        let dateTime = try #require(ExifDateTime(exifString: "2004:03:30 10:43:46"))
        // 2004-03-30T10:43:46Z
        #expect(dateTime.date(offsetSeconds: nil) == Date(timeIntervalSince1970: 1_080_643_426))
        #expect(dateTime.date(offsetSeconds: 7200) == Date(timeIntervalSince1970: 1_080_643_426 - 7200))
        let early = try #require(ExifDateTime(exifString: "1969:12:31 23:59:59"))
        #expect(early.date(offsetSeconds: nil) == Date(timeIntervalSince1970: -1))
    }

    @Test func futureIsRelativeToNow() throws {
        let now = Date(timeIntervalSince1970: 1_795_305_600) // 2026-11-22T00:00:00Z
        let tomorrow = try #require(ExifDateTime(exifString: "2026:11:22 12:00:00"))
        #expect(tomorrow.isInFuture(relativeTo: now))
        #expect(!tomorrow.isInFuture(relativeTo: now.addingTimeInterval(86_400)))
        #expect(!tomorrow.isInFuture(relativeTo: now, offsetSeconds: 13 * 3600))
    }
}
