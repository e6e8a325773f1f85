import Foundation
import AssetsKit
import Hummingbird
import ImagePipeline
@testable import PickerServer
import Testing

/// The server's memo of final renditions: bounded in bytes, least recently used out first.
@Suite struct RenditionMemoTests {
    private func rendition(_ bytes: Int) -> RenditionMemo.Rendition {
        RenditionMemo.Rendition(answer: PreparedAnswer(head: HTTPResponse(status: .ok), body: ByteBuffer(repeating: 0xAB, count: bytes)), tag: "\"t\"", cacheControl: "private")
    }

    private let asset = UUID().uuidString

    /// The key of the same asset at the `index`-th size.
    private func key(_ index: Int) -> RenditionKey {
        RenditionKey(source: SourceVersion(assetKey: asset, byteSize: 1_000, modificationTime: 0),
                     request: ImageRequest(targetSize: PixelSize(width: 100 + index, height: 100), contentMode: .fill, quality: 80))
    }

    @Test func neverHoldsMoreThanItsLimitAndDropsTheLeastRecentlyUsedFirst() {
        let memo = RenditionMemo(byteLimit: 10_000)
        for index in 0..<8 { memo.remember(rendition(1_000), for: key(index)) }
        #expect(memo.byteCount == 8_000)
        #expect(memo.rendition(for: key(0)) != nil) // t0 is now the most recently used
        for index in 8..<12 {
            memo.remember(rendition(1_000), for: key(index))
            #expect(memo.byteCount <= 10_000)
        }
        #expect(memo.rendition(for: key(0)) != nil)
        #expect(memo.rendition(for: key(1)) == nil)
        #expect(memo.rendition(for: key(11))?.byteCount == 1_000)
    }

    @Test func replacingAKeysRenditionCountsItsBytesOnce() {
        let memo = RenditionMemo(byteLimit: 10_000)
        memo.remember(rendition(1_000), for: key(0))
        memo.remember(rendition(2_000), for: key(0))
        #expect(memo.byteCount == 2_000)
        memo.forgetAll()
        #expect(memo.byteCount == 0)
        #expect(memo.rendition(for: key(0)) == nil)
    }

    @Test func aRenditionTooLargeForTheMemoIsNotKept() {
        let memo = RenditionMemo(byteLimit: 10_000)
        memo.remember(rendition(3_000), for: key(0))
        #expect(memo.rendition(for: key(0)) == nil)
        #expect(memo.byteCount == 0)
    }
}
