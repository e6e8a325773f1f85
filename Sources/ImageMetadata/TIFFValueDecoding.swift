import Foundation

/// Typed views of IFD entry values. Each returns `nil` when the entry's type does not fit the
/// requested kind of value.
extension TIFFByteReader {
    /// The longest string read from an ASCII entry; EXIF strings are short.
    static let maximumStringLength = 1024

    /// The first value of a BYTE, SHORT, LONG or IFD entry, or of a SLONG one that is not
    /// negative (some cameras write the GPS IFD's pointer as one).
    func integer(_ entry: ImageFileDirectory.Entry) -> Int? {
        guard entry.count >= 1 else { return nil }
        switch entry.type {
        case .byte: return uint8(at: entry.valueOffset).map(Int.init)
        case .short: return uint16(at: entry.valueOffset).map(Int.init)
        case .long, .ifd: return uint32(at: entry.valueOffset).map(Int.init)
        case .signedLong: return uint32(at: entry.valueOffset).flatMap { $0 < 0x8000_0000 ? Int($0) : nil }
        default: return nil
        }
    }

    /// An ASCII (or UNDEFINED) entry as text, cut at the first NUL and trimmed of spaces;
    /// `nil` when nothing is left.
    func string(_ entry: ImageFileDirectory.Entry) -> String? {
        guard entry.type == .ascii || entry.type == .undefined,
              let range = range(offset: entry.valueOffset, length: min(entry.byteCount, Self.maximumStringLength))
        else { return nil }
        let text = bytes[range].prefix { $0 != 0 }
        let trimmed = String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// The first `limit` numbers of a RATIONAL entry, or of an ASCII one that writes them as
    /// text (`52,00000,50,00000,34,01180` or `36 26 54.00`: the decimal numbers in it, in
    /// order, as exiftool reads them).
    func numbers(_ entry: ImageFileDirectory.Entry, limit: Int) -> [Double]? {
        guard entry.type == .ascii else { return rationals(entry, limit: limit) }
        guard let text = string(entry) else { return nil }
        let numbers = text.split { !($0.isASCII && ($0.isNumber || $0 == ".")) }.prefix(limit).compactMap { Double($0) }
        return numbers.isEmpty ? nil : numbers
    }

    /// The first `limit` values of a RATIONAL entry (fewer if it has fewer), or `nil` if any of
    /// them has a zero denominator.
    func rationals(_ entry: ImageFileDirectory.Entry, limit: Int) -> [Double]? {
        guard entry.type == .rational else { return nil }
        var values: [Double] = []
        for index in 0..<min(entry.count, limit) {
            let offset = entry.valueOffset + 8 * index
            guard let numerator = uint32(at: offset), let denominator = uint32(at: offset + 4),
                  denominator != 0 else { return nil }
            values.append(Double(numerator) / Double(denominator))
        }
        return values
    }
}
