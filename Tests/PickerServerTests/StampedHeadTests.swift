import NIOCore
import NIOEmbedded
import NIOHTTP1
@testable import PickerServer
import Testing

@Suite struct StampedHeadTests {
    @Test func theHeadIsEncodedWithTheServedHeadersDateAndServerAfterItsOwnHeadersAndTheDateIsCurrent() {
        let stamped = StampedHead(HTTPResponseHead(version: .http1_1, status: .ok, headers: ["Content-Length": "3", "ETag": "\"a\""]))
        let first = stamped.bytes(date: "Wed, 25 Nov 2026 21:00:00 GMT", server: "assets-picker")
        #expect(String(buffer: first) == "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nETag: \"a\"\r\n"
            + "X-Content-Type-Options: nosniff\r\nCross-Origin-Resource-Policy: same-origin\r\n"
            + "Date: Wed, 25 Nov 2026 21:00:00 GMT\r\nServer: assets-picker\r\n\r\n")
        #expect(stamped.bytes(date: "Wed, 25 Nov 2026 21:00:00 GMT", server: "assets-picker") == first)
        let next = stamped.bytes(date: "Wed, 25 Nov 2026 21:00:01 GMT", server: "assets-picker")
        #expect(String(buffer: next).contains("\r\nDate: Wed, 25 Nov 2026 21:00:01 GMT\r\n"))
        #expect(next.readableBytes == first.readableBytes)
    }

    @Test func theBytesAreWhatSwiftNIOsEncoderWritesForTheSameHead() throws {
        for head in [HTTPResponseHead(version: .http1_1, status: .ok, headers: ["Content-Type": "image/jpeg", "Content-Length": "3"]),
                     HTTPResponseHead(version: .http1_1, status: .notModified, headers: ["ETag": "\"a\"", "Cache-Control": "private"])] {
            let channel = EmbeddedChannel(handler: HTTPResponseEncoder())
            var stampedHead = head
            for field in ServedHeaders.fields { stampedHead.headers.add(name: field.name.rawName, value: field.value) }
            stampedHead.headers.add(name: "Date", value: "Wed, 25 Nov 2026 21:00:00 GMT")
            stampedHead.headers.add(name: "Server", value: "assets-picker")
            try channel.writeOutbound(HTTPServerResponsePart.head(stampedHead))
            let encoded = try #require(try channel.readOutbound(as: IOData.self))
            guard case .byteBuffer(let expected) = encoded else { Issue.record("not a buffer"); return }
            #expect(StampedHead(head).bytes(date: "Wed, 25 Nov 2026 21:00:00 GMT", server: "assets-picker") == expected)
        }
    }
}
