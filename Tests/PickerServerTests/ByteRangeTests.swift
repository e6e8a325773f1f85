@testable import PickerServer
import Testing

/// `Range: bytes=…` resolved against a file's length.
@Suite struct ByteRangeTests {
    @Test(arguments: [
        (nil, ByteRange.whole), ("bytes=0-99", .part(0...99)), ("bytes=100-", .part(100...999)), ("bytes=-100", .part(900...999)),
        ("bytes=-5000", .part(0...999)), ("bytes=990-2000", .part(990...999)), ("bytes=1000-", .unsatisfiable),
        ("bytes=-0", .unsatisfiable), ("bytes=5-1", .whole), ("bytes=0-1,5-6", .whole), ("items=0-5", .whole), ("bytes=a-b", .whole),
        ("bytes= 10-19", .part(10...19)),
    ] as [(String?, ByteRange)])
    func resolves(header: String?, expected: ByteRange) {
        #expect(ByteRange(header: header, length: 1_000) == expected)
    }

    @Test func anEmptyFileHasNoSatisfiableRange() {
        #expect(ByteRange(header: "bytes=0-", length: 0) == .unsatisfiable)
        #expect(ByteRange(header: "bytes=-1", length: 0) == .unsatisfiable)
    }
}
