import Foundation

/// Which bytes of an object a metadata read looks at, told from the bytes read so far: so that
/// an object's EXIF, size and date come from ranged reads of its head (and the few other places
/// its format keeps them), never from a download of the whole object, while the read gives what
/// it gives for the same file on this machine.
///
/// Each format's layout walks the file's structure as the readers do (``MediaMetadataReader``:
/// the JPEG header, libvips, `PNGExifLocator`, libheif, ffprobe): a JPEG's segments up to its
/// first scan, a PNG's chunks, a WebP's RIFF chunks, an ISO media file's boxes (`moov`, a HEIF's
/// `meta` and its Exif item). A format whose readers may look anywhere (TIFF's directories, GIF's
/// frames, Matroska) and anything unrecognised, damaged or truncated is read whole, so a hostile
/// file gets exactly the refusal it gets on this machine.
enum ObjectLayout {
    /// What a read of the bytes known so far needs.
    enum Verdict: Equatable {
        /// Every byte a metadata read looks at is known.
        case complete
        /// These bytes are needed next.
        case needs(Range<Int64>)
        /// The read may look anywhere, or the structure is not one to trust: the whole object.
        case whole
    }

    /// The verdict on `bytes` (whose first bytes are known).
    static func verdict(_ bytes: ObjectBytes) -> Verdict {
        if bytes.isWhole { return .complete }
        guard let magic = bytes.bytes(at: 0, count: min(12, Int(bytes.size))), magic.count == 12 else { return .whole }
        if magic[0] == 0xFF, magic[1] == 0xD8, magic[2] == 0xFF { return JPEGLayout.verdict(bytes) }
        if magic[0..<8].elementsEqual(PNGLayout.signature) { return PNGLayout.verdict(bytes) }
        if magic[0..<4].elementsEqual("RIFF".utf8), magic[8..<12].elementsEqual("WEBP".utf8) { return WebPLayout.verdict(bytes) }
        if ISOMediaLayout.topLevelTypes.contains(String(decoding: magic[4..<8], as: UTF8.self)) { return ISOMediaLayout.verdict(bytes) }
        return .whole
    }

    /// `.needs` the first unknown part of `range`, or `nil` when all of it is known.
    static func need(_ range: Range<Int64>, in bytes: ObjectBytes) -> Verdict? {
        bytes.missing(in: range).map(Verdict.needs)
    }

    /// A big-endian unsigned integer of `bytes`.
    static func bigEndian(_ bytes: some Collection<UInt8>) -> Int64 {
        bytes.reduce(0) { $0 << 8 | Int64($1) }
    }

    /// A little-endian unsigned integer of `bytes`.
    static func littleEndian(_ bytes: some Collection<UInt8>) -> Int64 {
        bytes.reversed().reduce(0) { $0 << 8 | Int64($1) }
    }
}
