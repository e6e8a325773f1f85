import NIOHTTP1
@testable import PickerServer
import Testing

@Suite struct StampedHeadTests {
    @Test func theDateAndServerFollowTheAnswersOwnHeadersAndTheDateIsCurrent() {
        let stamped = StampedHead(HTTPResponseHead(version: .http1_1, status: .ok, headers: ["Content-Length": "3", "ETag": "\"a\""]))
        let first = stamped.head(date: "Wed, 25 Nov 2026 21:00:00 GMT", server: "assets-picker")
        #expect(first.headers.map { "\($0.name): \($0.value)" } == [
            "Content-Length: 3", "ETag: \"a\"", "Date: Wed, 25 Nov 2026 21:00:00 GMT", "Server: assets-picker",
        ])
        #expect(stamped.head(date: "Wed, 25 Nov 2026 21:00:00 GMT", server: "assets-picker") == first)
        let next = stamped.head(date: "Wed, 25 Nov 2026 21:00:01 GMT", server: "assets-picker")
        #expect(next.headers["Date"] == ["Wed, 25 Nov 2026 21:00:01 GMT"])
        #expect(next.headers.count == 4)
    }
}
