import Hummingbird
@testable import PickerServer
import Testing

/// The server's memo of final renditions: bounded in bytes, least recently used out first.
@Suite struct RenditionMemoTests {
    private func rendition(_ bytes: Int) -> RenditionMemo.Rendition {
        RenditionMemo.Rendition(bytes: ByteBuffer(repeating: 0xAB, count: bytes), contentType: "image/jpeg", pixelSize: "1x1")
    }

    @Test func neverHoldsMoreThanItsLimitAndDropsTheLeastRecentlyUsedFirst() {
        let memo = RenditionMemo(byteLimit: 10_000)
        for index in 0..<8 { memo.remember(rendition(1_000), tagged: "t\(index)") }
        #expect(memo.byteCount == 8_000)
        #expect(memo.rendition(tagged: "t0") != nil) // t0 is now the most recently used
        for index in 8..<12 {
            memo.remember(rendition(1_000), tagged: "t\(index)")
            #expect(memo.byteCount <= 10_000)
        }
        #expect(memo.rendition(tagged: "t0") != nil)
        #expect(memo.rendition(tagged: "t1") == nil)
        #expect(memo.rendition(tagged: "t11")?.bytes.readableBytes == 1_000)
    }

    @Test func replacingATagCountsItsBytesOnce() {
        let memo = RenditionMemo(byteLimit: 10_000)
        memo.remember(rendition(1_000), tagged: "t")
        memo.remember(rendition(2_000), tagged: "t")
        #expect(memo.byteCount == 2_000)
        memo.forgetAll()
        #expect(memo.byteCount == 0)
        #expect(memo.rendition(tagged: "t") == nil)
    }

    @Test func aRenditionTooLargeForTheMemoIsNotKept() {
        let memo = RenditionMemo(byteLimit: 10_000)
        memo.remember(rendition(3_000), tagged: "big")
        #expect(memo.rendition(tagged: "big") == nil)
        #expect(memo.byteCount == 0)
    }
}
