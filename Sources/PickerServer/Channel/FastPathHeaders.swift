import NIOHTTP1

/// What ``RenditionFastPath`` reads from a request's headers, found in one pass over them: a
/// thumbnail request carries a handful of headers, and each is looked at once.
///
/// Names are compared as HTTP compares them (ASCII, case-insensitive); of repeated headers the
/// first `If-None-Match` counts, and the person's cookie is the first found in the `Cookie`
/// lines in order (as `PersonCookie` reads one line).
struct FastPathHeaders {
    /// Whether any `Connection` header is there (the router handles those).
    private(set) var hasConnection = false
    /// The value of the person's cookie, if it is there.
    private(set) var personToken: Substring?
    /// The first `If-None-Match` header.
    private(set) var ifNoneMatch: String?

    init(_ headers: HTTPHeaders, cookieName: String) {
        for (name, value) in headers {
            if Self.isName(name, "cookie") {
                if personToken == nil { personToken = PersonCookie.value(named: cookieName, in: value) }
            } else if Self.isName(name, "connection") {
                hasConnection = true
            } else if ifNoneMatch == nil, Self.isName(name, "if-none-match") {
                ifNoneMatch = value
            }
        }
    }

    /// Whether `name` is `lowercased` in any case.
    private static func isName(_ name: String, _ lowercased: StaticString) -> Bool {
        guard name.utf8.count == lowercased.utf8CodeUnitCount else { return false }
        return lowercased.withUTF8Buffer { expected in
            var index = 0
            for byte in name.utf8 {
                let lower = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
                guard lower == expected[index] else { return false }
                index += 1
            }
            return true
        }
    }
}
