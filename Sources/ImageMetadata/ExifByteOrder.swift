/// The byte order of a TIFF structure, as its header declares it.
public enum ExifByteOrder: String, Sendable, Hashable, CaseIterable {
    /// Motorola order, most significant byte first; the header starts with `MM`.
    case bigEndian = "MM"
    /// Intel order, least significant byte first; the header starts with `II`.
    case littleEndian = "II"

    /// The four bytes that open a TIFF header in this order: the order mark and the magic number 42.
    var headerSignature: [UInt8] {
        switch self {
        case .bigEndian: [0x4D, 0x4D, 0x00, 0x2A]
        case .littleEndian: [0x49, 0x49, 0x2A, 0x00]
        }
    }

    /// `value` as two bytes in this order.
    func bytes(of value: UInt16) -> [UInt8] {
        let high = UInt8(truncatingIfNeeded: value >> 8), low = UInt8(truncatingIfNeeded: value)
        return self == .bigEndian ? [high, low] : [low, high]
    }

    /// `value` as four bytes in this order.
    func bytes(of value: UInt32) -> [UInt8] {
        let big = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> UInt32($0)) }
        return self == .bigEndian ? big : big.reversed()
    }
}
