/// Whole numbers as the client API takes them in text (query parameters, int64 strings): decimal
/// digits only, without sign, space or leading zero (`0` itself is taken).
enum DecimalText {
    /// The number `text` writes, or `nil` when it is not written that way or does not fit an `Int`.
    static func wholeNumber(_ text: String) -> Int? {
        let digits = text.utf8
        guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              digits.count == 1 || digits.first != UInt8(ascii: "0") else { return nil }
        return Int(text)
    }
}
