/// Random, unguessable tokens and their comparison in constant time.
public enum SecretToken {
    /// A new token of `byteCount` random bytes (at least 16: 128 bits) from the system's
    /// cryptographic generator, in unpadded base64url (safe in a URL path).
    public static func make(byteCount: Int = 16) -> String {
        precondition(byteCount >= 16, "a token needs at least 128 bits")
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return base64URL(bytes)
    }

    /// Whether `candidate` equals `secret`, taking the same time wherever they differ (only
    /// their lengths, which are not secret, end it early).
    public static func matches(_ candidate: some StringProtocol, _ secret: some StringProtocol) -> Bool {
        matches(candidate.utf8, secret.utf8)
    }

    /// Whether the bytes `candidate` equal `secret`'s, in constant time as above; read in place,
    /// nothing copied.
    public static func matches(_ candidate: some Collection<UInt8>, _ secret: some Collection<UInt8>) -> Bool {
        guard candidate.count == secret.count else { return false }
        // Native strings' bytes are contiguous: compared as buffers, without an index walk.
        let contiguous = candidate.withContiguousStorageIfAvailable { candidate in
            secret.withContiguousStorageIfAvailable { secret in difference(candidate, secret) }
        }
        if let contiguous, let contiguous { return contiguous == 0 }
        return difference(candidate, secret) == 0
    }

    /// The bytes of `a` and `b` (of one length) OR-ed together after XOR: 0 when they are equal.
    private static func difference(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> UInt8 {
        var difference: UInt8 = 0
        for (a, b) in zip(a, b) { difference |= a ^ b }
        return difference
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static func base64URL(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value = UInt32(0)
            for (offset, byte) in chunk.enumerated() { value |= UInt32(byte) << (16 - 8 * offset) }
            for position in 0...chunk.count { output.append(alphabet[Int(value >> (18 - 6 * position)) & 63]) }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }
}
