/// The cookie a signed-in browser carries: the person's browser token (``Picker/PersonSignIn``).
///
/// `HttpOnly` (no script reads it), `SameSite=Strict` (no other site's page makes the browser
/// send it), `Path=/`, and no `Secure`: the server speaks plain HTTP on loopback, where a
/// browser would refuse to store a `Secure` cookie. Browsers send a host's cookies to all of its
/// ports, so the name carries the server's port: two servers on one host keep theirs apart.
enum PersonCookie {
    /// The cookie's name on a server listening on `port`.
    static func name(port: Int) -> String { "assets_picker_person_\(port)" }

    /// The `Set-Cookie` value that keeps `token` for `maxAge` seconds.
    static func setCookie(name: String, token: String, maxAge: Int) -> String {
        "\(name)=\(token); Max-Age=\(maxAge); Path=/; HttpOnly; SameSite=Strict"
    }

    /// The value of the cookie `name` in the request's `Cookie` header lines, if there is one.
    /// Read byte by byte (every thumbnail request asks it): pairs split at `;`, leading spaces
    /// dropped, the name compared exactly.
    static func value(named name: String, in headers: some Sequence<String>) -> Substring? {
        for header in headers {
            let bytes = header.utf8
            var start = bytes.startIndex
            while start < bytes.endIndex {
                let end = bytes[start...].firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
                var pairStart = start
                while pairStart < end, bytes[pairStart] == UInt8(ascii: " ") { pairStart = bytes.index(after: pairStart) }
                if let equals = bytes[pairStart..<end].firstIndex(of: UInt8(ascii: "=")),
                   bytes[pairStart..<equals].elementsEqual(name.utf8) {
                    return header[bytes.index(after: equals)..<end]
                }
                start = end < bytes.endIndex ? bytes.index(after: end) : end
            }
        }
        return nil
    }
}
