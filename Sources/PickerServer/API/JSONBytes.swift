import Foundation
import NIOCore

/// JSON values written straight into a `ByteBuffer`, byte for byte what ``JSONResponse``'s
/// encoder writes for them: strings with `"`, `\` and control characters escaped (`\b`, `\f`,
/// `\n`, `\r`, `\t` by name, the others as `\u00XX`), slashes and non-ASCII characters as they are.
///
/// For the few answers long enough that Foundation's encoder, which first builds a tree of boxed
/// values, is most of their cost (the album list of a library with thousands of folders).
extension ByteBuffer {
    /// Writes `text` as a JSON string, quotes included.
    mutating func writeJSONString(_ text: String) {
        writeInteger(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var plainStart = 0
            for (offset, byte) in bytes.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                writeBytes(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[plainStart..<offset]))
                writeEscape(of: byte)
                plainStart = offset + 1
            }
            writeBytes(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[plainStart...]))
        }
        writeInteger(UInt8(ascii: "\""))
    }

    /// Writes `uuid` as a JSON string in `UUID.uuidString`'s form (upper-case hexadecimal, 8-4-4-4-12).
    mutating func writeJSONString(_ uuid: UUID) {
        let digits: StaticString = "0123456789ABCDEF"
        writeWithUnsafeMutableBytes(minimumWritableBytes: 38) { characters in
            withUnsafeBytes(of: uuid.uuid) { bytes in
                characters[0] = UInt8(ascii: "\"")
                var position = 1
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        characters[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    characters[position] = digits.utf8Start[Int(byte >> 4)]
                    characters[position + 1] = digits.utf8Start[Int(byte & 0x0F)]
                    position += 2
                }
                characters[position] = UInt8(ascii: "\"")
            }
            return 38
        }
    }

    /// Writes `number` in decimal, as JSON writes an integer.
    mutating func writeJSONNumber(_ number: Int) {
        writeString(String(number))
    }

    private mutating func writeEscape(of byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): writeStaticString("\\\"")
        case UInt8(ascii: "\\"): writeStaticString("\\\\")
        case 0x08: writeStaticString("\\b")
        case 0x0C: writeStaticString("\\f")
        case 0x0A: writeStaticString("\\n")
        case 0x0D: writeStaticString("\\r")
        case 0x09: writeStaticString("\\t")
        default:
            let digits: StaticString = "0123456789abcdef"
            writeStaticString("\\u00")
            writeInteger(digits.utf8Start[Int(byte >> 4)])
            writeInteger(digits.utf8Start[Int(byte & 0x0F)])
        }
    }
}
