/// SHA-1, only to make name-based (version 5) UUIDs as RFC 9562 defines them. Not for security.
/// Works in stack buffers: a library hands out many path UUIDs per answer.
struct SHA1 {
    static func hash(_ message: [UInt8]) -> [UInt8] {
        var h: (UInt32, UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)
        let length = (message.count + 8) / 64 * 64 + 64
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { data in
            data.initialize(repeating: 0)
            _ = data.initialize(from: message)
            data[message.count] = 0x80
            let bitLength = UInt64(message.count) &* 8
            for index in 0..<8 { data[length - 1 - index] = UInt8(truncatingIfNeeded: bitLength >> UInt64(index * 8)) }
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 80) { w in
                for chunk in stride(from: 0, to: length, by: 64) {
                    for i in 0..<16 {
                        let b = chunk + i * 4
                        w[i] = UInt32(data[b]) << 24 | UInt32(data[b + 1]) << 16 | UInt32(data[b + 2]) << 8 | UInt32(data[b + 3])
                    }
                    for i in 16..<80 { w[i] = (w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]).rotatedLeft(by: 1) }
                    var (a, b, c, d, e) = h
                    for i in 0..<80 {
                        let (f, k): (UInt32, UInt32) = switch i {
                        case 0..<20: ((b & c) | (~b & d), 0x5A82_7999)
                        case 20..<40: (b ^ c ^ d, 0x6ED9_EBA1)
                        case 40..<60: ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                        default: (b ^ c ^ d, 0xCA62_C1D6)
                        }
                        let temp = a.rotatedLeft(by: 5) &+ f &+ e &+ k &+ w[i]
                        (e, d, c, b, a) = (d, c, b.rotatedLeft(by: 30), a, temp)
                    }
                    h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e)
                }
            }
        }
        var digest: [UInt8] = []
        digest.reserveCapacity(20)
        for word in [h.0, h.1, h.2, h.3, h.4] {
            for shift: UInt32 in [24, 16, 8, 0] { digest.append(UInt8(truncatingIfNeeded: word >> shift)) }
        }
        return digest
    }
}

private extension UInt32 {
    func rotatedLeft(by count: UInt32) -> UInt32 { (self << count) | (self >> (32 - count)) }
}
