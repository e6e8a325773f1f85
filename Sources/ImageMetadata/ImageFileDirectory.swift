/// One IFD of a TIFF structure: its entries by tag, and the link to the next IFD.
///
/// Reading is defensive: at most ``maximumEntryCount`` entries are read, entries that run past
/// the block stop the walk, and entries of unknown type or with value bytes outside the block
/// are dropped on their own.
struct ImageFileDirectory {
    /// An entry's tag, type, value count and where its value bytes are.
    struct Entry {
        let tag: UInt16
        let type: TIFFFieldType
        let count: Int
        /// TIFF offset of the value bytes: inside the entry when they fit in four bytes.
        let valueOffset: Int
        /// `count` times the type's size; known to lie inside the block.
        let byteCount: Int
    }

    /// More entries than any real camera writes in one IFD.
    static let maximumEntryCount = 1000

    /// Entries by tag; the first of duplicated tags wins.
    let entries: [UInt16: Entry]
    /// TIFF offset of the next IFD, `nil` when the link is 0 or unreadable.
    let nextIFDOffset: Int?

    /// Reads the IFD at TIFF offset `offset`, or `nil` if not even its entry count is readable.
    init?(reader: TIFFByteReader, offset: Int) {
        guard let declaredCount = reader.uint16(at: offset) else { return nil }
        var entries: [UInt16: Entry] = [:]
        let entryCount = min(Int(declaredCount), Self.maximumEntryCount)
        for index in 0..<entryCount {
            let entryOffset = offset + 2 + 12 * index
            guard reader.range(offset: entryOffset, length: 12) != nil else { break }
            if let entry = Self.entry(at: entryOffset, reader: reader), entries[entry.tag] == nil {
                entries[entry.tag] = entry
            }
        }
        self.entries = entries
        let link = reader.uint32(at: offset + 2 + 12 * Int(declaredCount)).map(Int.init)
        nextIFDOffset = link == 0 ? nil : link
    }

    subscript(tag: UInt16) -> Entry? { entries[tag] }

    private static func entry(at offset: Int, reader: TIFFByteReader) -> Entry? {
        guard let tag = reader.uint16(at: offset),
              let type = reader.uint16(at: offset + 2).flatMap(TIFFFieldType.init(rawValue:)),
              let count = reader.uint32(at: offset + 4).map(Int.init) else { return nil }
        let (byteCount, overflow) = count.multipliedReportingOverflow(by: type.size)
        guard !overflow else { return nil }
        let valueOffset: Int
        if byteCount <= 4 {
            valueOffset = offset + 8
        } else {
            guard let pointer = reader.uint32(at: offset + 8) else { return nil }
            valueOffset = Int(pointer)
        }
        guard reader.range(offset: valueOffset, length: byteCount) != nil else { return nil }
        return Entry(tag: tag, type: type, count: count, valueOffset: valueOffset, byteCount: byteCount)
    }
}
