/// Why a JPEG could not be rebuilt without its location (``LocationFreeJPEG``, ``JPEGScanWalker``).
///
/// Each case is a file too damaged or too unusual to rebuild safely; the caller answers such a
/// file another way (a decoded and re-encoded copy, which carries no metadata at all).
public enum JPEGRebuildError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The data does not start with a JPEG SOI marker.
    case notJPEG
    /// A marker (`FF xx`) was expected at `offset`, but the byte there is `byte`.
    case missingMarker(offset: Int64, byte: UInt8)
    /// The segment with `marker` at `offset` declares a length below 2, the size of the length field itself.
    case invalidSegmentLength(marker: UInt8, offset: Int64)
    /// The marker at `offset` has no place where it stands (a second SOI, a frame after the
    /// first scan, a reserved code, a scan before any frame).
    case unexpectedMarker(marker: UInt8, offset: Int64)
    /// The header holds no frame (SOFn) before its first scan.
    case missingFrame
    /// The data ended at `offset`, before the end of the first image (its EOI marker).
    case missingEndOfImage(offset: Int64)
    /// More than `limit` segments are dropped from between the scans: the file is built to be
    /// expensive, not to be shown.
    case tooManyDroppedSegments(limit: Int)

    /// A one-line explanation of what is wrong, with the offsets involved.
    public var description: String {
        switch self {
        case .notJPEG:
            "not a JPEG: it does not start with FFD8"
        case let .missingMarker(offset, byte):
            "expected a JPEG marker at byte \(offset), found 0x\(Self.hex(byte))"
        case let .invalidSegmentLength(marker, offset):
            "JPEG segment FF\(Self.hex(marker)) at byte \(offset) declares a length below 2"
        case let .unexpectedMarker(marker, offset):
            "JPEG marker FF\(Self.hex(marker)) at byte \(offset) has no place there"
        case .missingFrame:
            "the JPEG has no frame header (SOFn) before its first scan"
        case let .missingEndOfImage(offset):
            "the JPEG ends at byte \(offset) before the end of its first image (no EOI marker)"
        case let .tooManyDroppedSegments(limit):
            "more than \(limit) metadata segments between the JPEG's scans"
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return byte < 0x10 ? "0" + digits : digits
    }
}
