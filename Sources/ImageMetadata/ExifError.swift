/// Why an EXIF block could not be read at all.
///
/// ``ExifReader`` throws only when there is no TIFF structure to start from; damage further in
/// (a broken sub-IFD, an absurd tag) leaves the affected fields `nil` instead.
public enum ExifError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The block holds no bytes.
    case emptyBlock
    /// No `II*\0` or `MM\0*` header starts within the first bytes of the block.
    case noTIFFHeader(blockLength: Int, searchedBytes: Int)
    /// A TIFF header starts at `headerOffset`, but the block ends before its IFD0 offset.
    case truncatedTIFFHeader(blockLength: Int, headerOffset: Int)

    /// A one-line explanation of what is wrong, with the offsets and sizes involved.
    public var description: String {
        switch self {
        case .emptyBlock:
            "EXIF block is empty"
        case let .noTIFFHeader(blockLength, searchedBytes):
            "no TIFF header (\"II*\\0\" or \"MM\\0*\") in the first \(searchedBytes) bytes of the \(blockLength)-byte EXIF block"
        case let .truncatedTIFFHeader(blockLength, headerOffset):
            "TIFF header at byte \(headerOffset) is cut off: the EXIF block ends at \(blockLength) bytes, before the IFD0 offset"
        }
    }
}
