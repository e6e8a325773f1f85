import Foundation

/// Where a HEIF file keeps its Exif item's bytes: the item whose `infe` type is `Exif`, placed by
/// `iloc` (ISO/IEC 14496-12 §8.11.3, §8.11.6). libheif reads those bytes for the EXIF; the
/// image data is never read for metadata.
enum HEIFExifItem {
    /// The file ranges of the Exif items of the `meta` box `box` (the whole box, header included);
    /// `[]` when there is none or it is inside `meta` (`idat`); `nil` when `meta` cannot be read.
    static func extents(inMetaBox box: [UInt8]) -> [Range<Int64>]? {
        // `meta` is a full box: its children follow the version and flags.
        guard box.count >= 12, let children = boxes(in: box[12...]) else { return nil }
        guard let infos = children["iinf"], let exifItems = exifItemIDs(inItemInfo: infos) else { return nil }
        guard !exifItems.isEmpty else { return [] }
        guard let locations = children["iloc"] else { return nil }
        return fileExtents(of: exifItems, inItemLocations: locations)
    }

    /// The payloads of the boxes in `data`, by type (the first of each type).
    static func boxes(in data: ArraySlice<UInt8>) -> [String: ArraySlice<UInt8>]? {
        var found: [String: ArraySlice<UInt8>] = [:]
        var position = data.startIndex
        while position + 8 <= data.endIndex {
            var size = Int(ObjectLayout.bigEndian(data[position..<(position + 4)]))
            let type = String(decoding: data[(position + 4)..<(position + 8)], as: UTF8.self)
            var headerSize = 8
            if size == 1 {
                guard position + 16 <= data.endIndex else { return nil }
                size = Int(ObjectLayout.bigEndian(data[(position + 8)..<(position + 16)]))
                headerSize = 16
            } else if size == 0 {
                size = data.endIndex - position
            }
            guard size >= headerSize, size <= data.endIndex - position else { return nil }
            if found[type] == nil { found[type] = data[(position + headerSize)..<(position + size)] }
            position += size
        }
        return found
    }

    /// The IDs of the items `iinf` says are of type `Exif`.
    static func exifItemIDs(inItemInfo payload: ArraySlice<UInt8>) -> Set<Int64>? {
        var reader = BoxReader(payload)
        guard let version = reader.integer(1), reader.skip(3), let count = reader.integer(version == 0 ? 2 : 4) else { return nil }
        var ids: Set<Int64> = []
        for _ in 0..<count {
            guard let size = reader.integer(4), size >= 8, let type = reader.text(4), type == "infe",
                  let entry = reader.bytes(Int(size) - 8) else { return nil }
            var info = BoxReader(entry)
            guard let infeVersion = info.integer(1), info.skip(3) else { return nil }
            // Versions 0 and 1 carry no item type: not an Exif item.
            guard infeVersion >= 2 else { continue }
            guard let id = info.integer(infeVersion == 2 ? 2 : 4), info.skip(2), let itemType = info.text(4) else { return nil }
            if itemType == "Exif" { ids.insert(id) }
        }
        return ids
    }

    /// Where in the file the items `ids` are, as `iloc` places them by file offset; `nil` for
    /// an `iloc` that cannot be read or an item built otherwise than from file offsets.
    static func fileExtents(of ids: Set<Int64>, inItemLocations payload: ArraySlice<UInt8>) -> [Range<Int64>]? {
        var reader = BoxReader(payload)
        guard let version = reader.integer(1), version <= 2, reader.skip(3), let sizes = reader.integer(1),
              let more = reader.integer(1) else { return nil }
        let offsetSize = Int(sizes >> 4), lengthSize = Int(sizes & 0x0F), baseOffsetSize = Int(more >> 4)
        let indexSize = version >= 1 ? Int(more & 0x0F) : 0
        guard let count = reader.integer(version < 2 ? 2 : 4) else { return nil }
        var extents: [Range<Int64>] = []
        for _ in 0..<count {
            guard let id = reader.integer(version < 2 ? 2 : 4) else { return nil }
            var method: Int64 = 0
            if version >= 1 {
                guard let field = reader.integer(2) else { return nil }
                method = field & 0x0F
            }
            guard reader.skip(2), let base = reader.integer(baseOffsetSize), let extentCount = reader.integer(2) else { return nil }
            for _ in 0..<extentCount {
                guard reader.skip(indexSize), let offset = reader.integer(offsetSize), let length = reader.integer(lengthSize) else {
                    return nil
                }
                guard ids.contains(id), method != 1 else { continue }
                let (start, overflow) = base.addingReportingOverflow(offset)
                guard method == 0, length > 0, !overflow, start >= 0, start <= Int64.max - length else { return nil }
                extents.append(start..<(start + length))
            }
        }
        return extents
    }
}

/// Reads big-endian fields of a box's payload, one after the other.
struct BoxReader {
    private var data: ArraySlice<UInt8>

    init(_ data: ArraySlice<UInt8>) {
        self.data = data
    }

    /// The next `count` bytes as a big-endian unsigned integer (0 for `count` 0).
    mutating func integer(_ count: Int) -> Int64? {
        guard count <= 8, let bytes = bytes(count) else { return nil }
        return ObjectLayout.bigEndian(bytes)
    }

    /// The next `count` bytes as text (a four-character code).
    mutating func text(_ count: Int) -> String? {
        bytes(count).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Passes over `count` bytes; `false` when there are fewer.
    mutating func skip(_ count: Int) -> Bool {
        bytes(count) != nil
    }

    /// The next `count` bytes.
    mutating func bytes(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, data.count >= count else { return nil }
        defer { data = data.dropFirst(count) }
        return data.prefix(count)
    }
}
