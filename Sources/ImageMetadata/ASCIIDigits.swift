/// Decimal numbers written in ASCII digits, as EXIF stores dates and offsets.
enum ASCIIDigits {
    /// The value of `bytes` if they are one to nine ASCII digits and nothing else.
    static func number<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Int? {
        guard (1...9).contains(bytes.count) else { return nil }
        var value = 0
        for byte in bytes {
            guard isDigit(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
