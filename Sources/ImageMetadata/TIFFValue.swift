/// A value to write into an IFD entry.
enum TIFFValue {
    /// An unsigned fraction, as a RATIONAL value stores it.
    struct Rational {
        let numerator: UInt32
        let denominator: UInt32
    }

    /// A signed fraction, as an SRATIONAL value stores it.
    struct SignedRational {
        let numerator: Int32
        let denominator: Int32
    }

    case byte([UInt8])
    /// Text, written as UTF-8 with a terminating NUL.
    case ascii(String)
    case short([UInt16])
    case long([UInt32])
    case rational([Rational])
    case signedRational([SignedRational])
    case undefined([UInt8])

    var type: TIFFFieldType {
        switch self {
        case .byte: .byte
        case .ascii: .ascii
        case .short: .short
        case .long: .long
        case .rational: .rational
        case .signedRational: .signedRational
        case .undefined: .undefined
        }
    }

    /// The number of values, as the entry's count field states it.
    var count: Int {
        switch self {
        case let .byte(values), let .undefined(values): values.count
        case let .ascii(text): text.utf8.count + 1
        case let .short(values): values.count
        case let .long(values): values.count
        case let .rational(values): values.count
        case let .signedRational(values): values.count
        }
    }

    /// The value bytes in `byteOrder`.
    func encoded(_ byteOrder: ExifByteOrder) -> [UInt8] {
        switch self {
        case let .byte(values), let .undefined(values): values
        case let .ascii(text): Array(text.utf8) + [0]
        case let .short(values): values.flatMap(byteOrder.bytes(of:))
        case let .long(values): values.flatMap(byteOrder.bytes(of:))
        case let .rational(values):
            values.flatMap { byteOrder.bytes(of: $0.numerator) + byteOrder.bytes(of: $0.denominator) }
        case let .signedRational(values):
            values.flatMap { byteOrder.bytes(of: UInt32(bitPattern: $0.numerator)) + byteOrder.bytes(of: UInt32(bitPattern: $0.denominator)) }
        }
    }
}
