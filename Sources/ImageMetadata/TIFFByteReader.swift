/// Bounds-checked reads from a TIFF structure. Offsets count from the TIFF header, as the
/// offsets stored in the structure do; every read returns `nil` rather than trapping.
struct TIFFByteReader {
    /// How far into a block the TIFF header may start (after `Exif\0\0`, possibly preceded by a
    /// 4-byte offset as libheif delivers it).
    static let headerSearchWindow = 16

    /// The whole block the TIFF structure lives in.
    let bytes: [UInt8]
    /// Index of the TIFF header in `bytes`.
    let base: Int
    let byteOrder: ExifByteOrder

    /// Finds the TIFF header within the first ``headerSearchWindow`` bytes of `bytes`.
    init(locatingHeaderIn bytes: [UInt8]) throws(ExifError) {
        guard !bytes.isEmpty else { throw .emptyBlock }
        guard let (base, byteOrder) = Self.header(in: bytes) else {
            throw .noTIFFHeader(blockLength: bytes.count, searchedBytes: min(bytes.count, Self.headerSearchWindow + 4))
        }
        self.bytes = bytes
        self.base = base
        self.byteOrder = byteOrder
        guard firstIFDOffset != nil else { throw .truncatedTIFFHeader(blockLength: bytes.count, headerOffset: base) }
    }

    private static func header(in bytes: [UInt8]) -> (base: Int, byteOrder: ExifByteOrder)? {
        let lastStart = min(headerSearchWindow, bytes.count - 4)
        guard lastStart >= 0 else { return nil }
        for start in 0...lastStart {
            for order in ExifByteOrder.allCases where bytes[start..<start + 4].elementsEqual(order.headerSignature) {
                return (start, order)
            }
        }
        return nil
    }

    /// Offset of IFD0, as the header states it.
    var firstIFDOffset: Int? { uint32(at: 4).map(Int.init) }

    /// The indices in ``bytes`` of `length` bytes at TIFF offset `offset`, or `nil` if any of
    /// them lies outside the block.
    func range(offset: Int, length: Int) -> Range<Int>? {
        guard offset >= 0, length >= 0 else { return nil }
        let (start, startOverflow) = base.addingReportingOverflow(offset)
        let (end, endOverflow) = start.addingReportingOverflow(length)
        guard !startOverflow, !endOverflow, end <= bytes.count else { return nil }
        return start..<end
    }

    func uint8(at offset: Int) -> UInt8? {
        range(offset: offset, length: 1).map { bytes[$0.lowerBound] }
    }

    func uint16(at offset: Int) -> UInt16? {
        guard let start = range(offset: offset, length: 2)?.lowerBound else { return nil }
        let first = UInt16(bytes[start]), second = UInt16(bytes[start + 1])
        return byteOrder == .bigEndian ? first << 8 | second : second << 8 | first
    }

    func uint32(at offset: Int) -> UInt32? {
        guard let high = uint16(at: offset), let low = uint16(at: offset + 2) else { return nil }
        return byteOrder == .bigEndian ? UInt32(high) << 16 | UInt32(low) : UInt32(low) << 16 | UInt32(high)
    }
}
