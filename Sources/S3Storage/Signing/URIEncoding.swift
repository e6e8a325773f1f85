/// Percent-encoding as SigV4 and S3 want it, which is stricter than a URL's own rules.
///
/// Only the unreserved characters `A–Z a–z 0–9 - . _ ~` stay as they are; every other byte of
/// the UTF-8 form becomes `%XX` with upper-case hex digits: a space is `%20` (never `+`), and
/// `+`, `=`, `%`, `!`, `'`, `(`, `)`, `*` are encoded too. What is sent is exactly what is
/// signed, so the server decodes back the same key.
enum URIEncoding {
    /// `value` encoded; a `/` is kept when `keepingSlashes` (an object key in a path).
    static func encode(_ value: String, keepingSlashes: Bool = false) -> String {
        var encoded = [UInt8]()
        encoded.reserveCapacity(value.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in value.utf8 {
            if isUnreserved(byte) || (keepingSlashes && byte == UInt8(ascii: "/")) {
                encoded.append(byte)
            } else {
                encoded.append(UInt8(ascii: "%"))
                encoded.append(hex[Int(byte >> 4)])
                encoded.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// `value` with its `%XX` escapes decoded, and with `+` as a space when `plusIsSpace` (how
    /// S3 writes keys in a listing asked for with `encoding-type=url`); `nil` when an escape is
    /// broken or the bytes are not UTF-8.
    static func decode(_ value: String, plusIsSpace: Bool = false) -> String? {
        var bytes = [UInt8]()
        bytes.reserveCapacity(value.utf8.count)
        var iterator = value.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+") where plusIsSpace:
                bytes.append(UInt8(ascii: " "))
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
