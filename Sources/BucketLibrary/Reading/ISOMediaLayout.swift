import Foundation

/// An ISO media file's metadata (MP4, QuickTime, 3GP, HEIF, AVIF): its top-level boxes'
/// headers, the boxes readers parse whole (`moov` and a fragmented file's `moof`, `sidx`,
/// `mfra`; a HEIF's `meta`) and the bytes of a HEIF's Exif item, which `meta` places in `mdat`.
/// The media data itself is skipped.
enum ISOMediaLayout {
    /// The box types a file of this family begins with.
    static let topLevelTypes: Set<String> = ["ftyp", "moov", "mdat", "wide", "free", "skip", "pnot"]
    /// Boxes read whole.
    static let parsedTypes: Set<String> = ["moov", "meta", "moof", "sidx", "mfra"]

    static func verdict(_ bytes: ObjectBytes) -> ObjectLayout.Verdict {
        var position: Int64 = 0
        var meta: Range<Int64>?
        while position < bytes.size {
            guard position + 8 <= bytes.size else { return .whole }
            if let need = ObjectLayout.need(position..<(position + 8), in: bytes) { return need }
            let header = bytes.bytes(at: position, count: 8)!
            var size = ObjectLayout.bigEndian(header[0..<4])
            let type = String(decoding: header[4..<8], as: UTF8.self)
            if size == 1 {
                guard position + 16 <= bytes.size else { return .whole }
                if let need = ObjectLayout.need((position + 8)..<(position + 16), in: bytes) { return need }
                size = ObjectLayout.bigEndian(bytes.bytes(at: position + 8, count: 8)!)
            } else if size == 0 {
                size = bytes.size - position
            }
            guard size >= 8, size <= bytes.size - position else { return .whole }
            let box = position..<(position + size)
            if parsedTypes.contains(type) {
                if let need = ObjectLayout.need(box, in: bytes) { return need }
                if type == "meta", meta == nil { meta = box }
            }
            position = box.upperBound
        }
        guard let meta else { return .complete }
        guard let extents = HEIFExifItem.extents(inMetaBox: bytes.bytes(at: meta.lowerBound, count: Int(meta.count))!) else {
            return .whole
        }
        for extent in extents {
            guard extent.upperBound <= bytes.size else { return .whole }
            if let need = ObjectLayout.need(extent, in: bytes) { return need }
        }
        return .complete
    }
}
