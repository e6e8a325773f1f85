/// Lays out one IFD: the entry count, the entries sorted by tag, the next-IFD link, then the
/// values too long to sit inside their entries, each padded to an even length.
struct TIFFDirectoryEncoder {
    let entries: [(tag: UInt16, value: TIFFValue)]

    init(_ entries: [(tag: UInt16, value: TIFFValue)]) {
        self.entries = entries.sorted { $0.tag < $1.tag }
    }

    /// Bytes the IFD and its out-of-line values take.
    var size: Int {
        2 + 12 * entries.count + 4 + entries.map { outOfLineSize(of: $0.value) }.reduce(0, +)
    }

    /// The IFD's bytes when it starts at TIFF offset `offset`. All offsets must fit in 32
    /// bits; the caller keeps the whole structure within a JPEG segment.
    func encoded(at offset: Int, nextIFDOffset: Int, byteOrder: ExifByteOrder) -> [UInt8] {
        var directory = byteOrder.bytes(of: UInt16(entries.count))
        var values: [UInt8] = []
        let valuesStart = offset + 2 + 12 * entries.count + 4
        for (tag, value) in entries {
            var bytes = value.encoded(byteOrder)
            directory += byteOrder.bytes(of: tag) + byteOrder.bytes(of: value.type.rawValue)
                + byteOrder.bytes(of: UInt32(value.count))
            if bytes.count <= 4 {
                directory += bytes + [UInt8](repeating: 0, count: 4 - bytes.count)
            } else {
                directory += byteOrder.bytes(of: UInt32(valuesStart + values.count))
                if bytes.count % 2 == 1 { bytes.append(0) }
                values += bytes
            }
        }
        return directory + byteOrder.bytes(of: UInt32(nextIFDOffset)) + values
    }

    private func outOfLineSize(of value: TIFFValue) -> Int {
        let length = value.count * value.type.size
        return length <= 4 ? 0 : length + length % 2
    }
}
