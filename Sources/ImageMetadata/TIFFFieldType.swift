/// The TIFF field types an IFD entry may declare, with the size of one value of each.
enum TIFFFieldType: UInt16 {
    case byte = 1, ascii, short, long, rational, signedByte, undefined, signedShort, signedLong,
         signedRational, float, double, ifd

    /// Bytes taken by one value of this type.
    var size: Int {
        switch self {
        case .byte, .ascii, .signedByte, .undefined: 1
        case .short, .signedShort: 2
        case .long, .signedLong, .float, .ifd: 4
        case .rational, .signedRational, .double: 8
        }
    }
}
