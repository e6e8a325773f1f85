import Foundation

extension UUID {
    /// The UUID written in `text` as `XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX`, hexadecimal digits of
    /// either case; `nil` for anything else (an item id in a path is never percent-encoded).
    init?(canonical text: UnsafeBufferPointer<UInt8>) {
        guard text.count == 36 else { return nil }
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let complete = withUnsafeMutableBytes(of: &value) { out -> Bool in
            var index = 0, nibble = 0
            while index < 36 {
                let byte = text[index]
                if index == 8 || index == 13 || index == 18 || index == 23 {
                    guard byte == UInt8(ascii: "-") else { return false }
                } else {
                    let digit: UInt8
                    switch byte {
                    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                    case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                    default: return false
                    }
                    out[nibble / 2] |= nibble % 2 == 0 ? digit << 4 : digit
                    nibble += 1
                }
                index += 1
            }
            return true
        }
        guard complete else { return nil }
        self.init(uuid: value)
    }

    /// ``init(canonical:)`` for a string.
    init?(canonical text: String) {
        var text = text
        guard let uuid = text.withUTF8({ UUID(canonical: $0) }) else { return nil }
        self = uuid
    }
}
