import Foundation

/// The parts of a picker page's rendition request target,
/// `/picker/{session}/{token}/api/assets/{asset}/image?{query}`, read in one pass over its bytes
/// without decoding anything: what ``RenditionFastPath`` answers. A target that would need
/// decoding (`%` or `+` in the query), has a query part without `=`, names the asset other than
/// as a UUID in its canonical form, or has any other shape is not one; the router takes it.
///
/// It keeps the target and where its parts lie, so reading one makes no new string.
struct PickerImageTarget {
    let asset: UUID
    private let target: String
    /// Where the parts lie in `target`'s bytes; `query` (after `?`) is empty when there is none.
    private let parts: Parts

    init?(_ target: String) {
        var target = target
        guard let read = target.withUTF8({ bytes -> (Parts, UUID)? in
            guard let parts = Self.parts(of: bytes), let asset = UUID(canonical: UnsafeBufferPointer(rebasing: bytes[parts.asset])) else { return nil }
            return (parts, asset)
        }) else { return nil }
        self.target = target
        (parts, asset) = read
    }

    /// The session's id.
    var session: Substring { text(parts.session) }
    /// The session's picker token.
    var token: Substring { text(parts.token) }

    /// The value of the first parameter called `name` (as the router's query reading takes the first).
    func value(_ name: String) -> String? {
        let query = parts.query
        var name = name
        let found: String?? = target.utf8.withContiguousStorageIfAvailable { bytes in name.withUTF8 { name in
            var start = query.lowerBound
            while start < query.upperBound {
                var end = start
                while end < query.upperBound, bytes[end] != UInt8(ascii: "&") { end += 1 }
                var equals = start
                while equals < end, bytes[equals] != UInt8(ascii: "=") { equals += 1 }
                if equals < end, UnsafeBufferPointer(rebasing: bytes[start..<equals]).hasSameBytes(as: name) {
                    return Self.text(bytes, equals + 1..<end)
                }
                start = end + 1
            }
            return nil
        } }
        return found ?? nil
    }

    private struct Parts {
        var session: Range<Int>, token: Range<Int>, asset: Range<Int>, query: Range<Int>
    }

    private static func parts(of bytes: UnsafeBufferPointer<UInt8>) -> Parts? {
        let slash = UInt8(ascii: "/")
        var position = 0
        let pathEnd = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.count
        /// The next `/component` of the path: `expected` when given, else any non-empty one.
        func component(_ expected: StaticString? = nil) -> Range<Int>? {
            guard position < pathEnd, bytes[position] == slash else { return nil }
            let start = position + 1
            var end = start
            while end < pathEnd, bytes[end] != slash { end += 1 }
            position = end
            if let expected {
                let matches = expected.withUTF8Buffer { UnsafeBufferPointer(rebasing: bytes[start..<end]).hasSameBytes(as: $0) }
                return matches ? start..<end : nil
            }
            return end > start ? start..<end : nil
        }
        guard component("picker") != nil, let session = component(), let token = component(), component("api") != nil,
              component("assets") != nil, let asset = component(), component("image") != nil, position == pathEnd else { return nil }
        let query = pathEnd < bytes.count ? pathEnd + 1..<bytes.count : bytes.count..<bytes.count
        guard isPlain(UnsafeBufferPointer(rebasing: bytes[query])) else { return nil }
        return Parts(session: session, token: token, asset: asset, query: query)
    }

    /// Whether every `&`-separated part of a query is a `name=value` needing no decoding.
    private static func isPlain(_ query: UnsafeBufferPointer<UInt8>) -> Bool {
        var partIsEmpty = true, partHasEquals = false
        for byte in query {
            switch byte {
            case UInt8(ascii: "%"), UInt8(ascii: "+"):
                return false
            case UInt8(ascii: "&"):
                if !partIsEmpty, !partHasEquals { return false }
                partIsEmpty = true
                partHasEquals = false
            case UInt8(ascii: "="):
                partIsEmpty = false
                partHasEquals = true
            default:
                partIsEmpty = false
            }
        }
        return partIsEmpty || partHasEquals
    }

    private func text(_ range: Range<Int>) -> Substring {
        let utf8 = target.utf8
        return target[utf8.index(utf8.startIndex, offsetBy: range.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: range.upperBound)]
    }

    private static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}
