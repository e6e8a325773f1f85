/// The cookie a signed-in browser carries: the person's browser token (``Picker/PersonSignIn``).
///
/// `HttpOnly` (no script reads it), `SameSite=Strict` (no other site's page makes the browser
/// send it), `Path=/`, and no `Secure`: the server speaks plain HTTP on loopback, where a
/// browser would refuse to store a `Secure` cookie. Browsers send a host's cookies to all of its
/// ports, so the name carries the port people reach the server at: two servers on one host keep
/// theirs apart, and servers behind one public URL share one.
enum PersonCookie {
    /// The cookie's name on a server listening on `port`.
    static func name(port: Int) -> String { "assets_picker_person_\(port)" }

    /// The `Set-Cookie` value that keeps `token` for `maxAge` seconds.
    static func setCookie(name: String, token: String, maxAge: Int) -> String {
        "\(name)=\(token); Max-Age=\(maxAge); Path=/; HttpOnly; SameSite=Strict"
    }

    /// The values of the cookie `name` in the request's `Cookie` header lines, in order, at most
    /// `limit`: another site on the same host (any port) can set cookies of this name (with
    /// longer paths), which the browser then sends before the person's. Browsers keep about 180
    /// cookies a host, so the default takes every one a browser can send.
    static func values(named name: String, in headers: some Sequence<String>, limit: Int = 256) -> [Substring] {
        var values: [Substring] = []
        for header in headers where values.count < limit {
            var rest = Substring(header)
            while values.count < limit, let value = value(named: name, in: rest) {
                values.append(value)
                rest = rest[value.endIndex...]
            }
        }
        return values
    }

    /// The value of the cookie `name` in one `Cookie` header line, if it is there. Read byte by
    /// byte (every thumbnail request asks it): pairs split at `;`, leading spaces dropped, the
    /// name compared exactly.
    static func value(named name: String, in header: String) -> Substring? {
        value(named: name, in: Substring(header))
    }

    /// The first value of the cookie `name` in `line`, part of one `Cookie` header line.
    private static func value(named name: String, in line: Substring) -> Substring? {
        var line = line, name = name
        guard let range = line.withUTF8({ bytes in name.withUTF8 { valueBytes(named: $0, in: bytes) } }) else { return nil }
        let utf8 = line.utf8
        return line[utf8.index(utf8.startIndex, offsetBy: range.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: range.upperBound)]
    }

    /// Where the value of the cookie `name` lies in `bytes`, one `Cookie` line.
    private static func valueBytes(named name: UnsafeBufferPointer<UInt8>, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: ";") { end += 1 }
            var pairStart = start
            while pairStart < end, bytes[pairStart] == UInt8(ascii: " ") { pairStart += 1 }
            var equals = pairStart
            while equals < end, bytes[equals] != UInt8(ascii: "=") { equals += 1 }
            if equals < end, UnsafeBufferPointer(rebasing: bytes[pairStart..<equals]).hasSameBytes(as: name) {
                return equals + 1..<end
            }
            start = end + 1
        }
        return nil
    }
}
