/// The id half of an `id.secret` token as a dictionary key, read from the token's bytes without
/// making a `String` (a 22-character id is too long for Swift's inline small strings, so every
/// lookup by `String` would allocate one).
///
/// Up to 23 bytes are packed into three words with the length in the last byte, so two ids are
/// equal exactly when their bytes are; a longer id is not one this server made.
struct TokenID: Hashable {
    private var first: UInt64 = 0, second: UInt64 = 0, third: UInt64 = 0

    /// The id spelled by `bytes`, or `nil` when it is empty or longer than 23 bytes.
    init?(_ bytes: some Collection<UInt8>) {
        guard !bytes.isEmpty, bytes.count <= 23 else { return nil }
        for (offset, byte) in bytes.enumerated() {
            let bits = UInt64(byte) << UInt64((offset & 7) * 8)
            switch offset >> 3 {
            case 0: first |= bits
            case 1: second |= bits
            default: third |= bits
            }
        }
        third |= UInt64(bytes.count) << 56
    }
}
