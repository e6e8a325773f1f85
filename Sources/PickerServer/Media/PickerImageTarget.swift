/// The parts of a picker page's rendition request target,
/// `/picker/{session}/{token}/api/assets/{asset}/image?{query}`, read in place without decoding
/// or copying anything: what ``RenditionFastPath`` answers. A target that would need decoding
/// (`%` or `+` in the query), has a query part without `=`, or has any other shape is not one;
/// the router takes it.
struct PickerImageTarget {
    let session: Substring
    let token: Substring
    let asset: Substring
    /// What follows `?`; empty when nothing does.
    private let query: Substring

    init?(_ target: String) {
        var rest = Substring(target)
        var query = Substring()
        if let mark = rest.utf8.firstIndex(of: UInt8(ascii: "?")) {
            query = rest[rest.utf8.index(after: mark)...]
            rest = rest[..<mark]
        }
        /// The next `/component` of the path: `expected` when given, else any non-empty one.
        func component(_ expected: StaticString? = nil) -> Substring? {
            guard rest.utf8.first == UInt8(ascii: "/") else { return nil }
            rest = rest[rest.utf8.index(after: rest.utf8.startIndex)...]
            let end = rest.utf8.firstIndex(of: UInt8(ascii: "/")) ?? rest.utf8.endIndex
            let found = rest[..<end]
            rest = rest[end...]
            if let expected {
                let matches = expected.withUTF8Buffer { found.utf8.elementsEqual($0) }
                return matches ? found : nil
            }
            return found.isEmpty ? nil : found
        }
        guard component("picker") != nil, let session = component(), let token = component(), component("api") != nil,
              component("assets") != nil, let asset = component(), component("image") != nil, rest.isEmpty,
              Self.isPlain(query) else { return nil }
        self.session = session
        self.token = token
        self.asset = asset
        self.query = query
    }

    /// Whether every `&`-separated part of `query` is a `name=value` needing no decoding.
    private static func isPlain(_ query: Substring) -> Bool {
        var partIsEmpty = true, partHasEquals = false
        for byte in query.utf8 {
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

    /// The value of the first parameter called `name` (as the router's query reading takes the first).
    func value(_ name: String) -> Substring? {
        let bytes = query.utf8
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.endIndex
            if let equals = bytes[start..<end].firstIndex(of: UInt8(ascii: "=")), bytes[start..<equals].elementsEqual(name.utf8) {
                return query[bytes.index(after: equals)..<end]
            }
            start = end < bytes.endIndex ? bytes.index(after: end) : end
        }
        return nil
    }
}
