/// Why the marker walk of ``JPEGExifLocator`` stopped before finding an answer.
public enum JPEGStructureError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The segment with `marker` at `offset` declares that it ends at `end`, past the
    /// `available` bytes: the data is truncated, or more of the file must be read.
    case truncatedSegment(marker: UInt8, offset: Int, end: Int, available: Int)
    /// The segment with `marker` at `offset` declares a length below 2, the size of the length field itself.
    case invalidSegmentLength(marker: UInt8, offset: Int, length: Int)
    /// A marker (`FF xx`) was expected at `offset`, but the byte there is `byte`.
    case missingMarker(offset: Int, byte: UInt8)

    /// A one-line explanation of what is wrong, with the offsets and sizes involved.
    public var description: String {
        switch self {
        case let .truncatedSegment(marker, offset, end, available):
            "JPEG segment FF\(hex(marker)) at byte \(offset) ends at byte \(end), past the \(available) bytes available"
        case let .invalidSegmentLength(marker, offset, length):
            "JPEG segment FF\(hex(marker)) at byte \(offset) declares an impossible length of \(length) bytes"
        case let .missingMarker(offset, byte):
            "expected a JPEG marker at byte \(offset), found 0x\(hex(byte))"
        }
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return byte < 0x10 ? "0" + digits : digits
    }
}
