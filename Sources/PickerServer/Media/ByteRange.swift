/// A `Range: bytes=…` request header, resolved against a file's length (RFC 9110 §14).
enum ByteRange: Equatable {
    /// Serve the whole file (no header, a header this server does not take, or several ranges).
    case whole
    /// Serve these bytes.
    case part(ClosedRange<Int64>)
    /// Nothing of the file is in the range: answer 416.
    case unsatisfiable

    /// The range `header` asks for in a file of `length` bytes.
    init(header: String?, length: Int64) {
        guard let header, header.hasPrefix("bytes=") else {
            self = .whole
            return
        }
        let spec = header.dropFirst("bytes=".count).trimmingCharacters(in: " \t")
        // Several ranges would need multipart/byteranges; the whole file is an allowed answer.
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else {
            self = .whole
            return
        }
        let first = spec[..<dash], last = spec[spec.index(after: dash)...]
        switch (Int64(first), Int64(last)) {
        case (nil, let suffix?) where first.isEmpty:
            // The last `suffix` bytes.
            self = suffix > 0 && length > 0 ? .part(max(0, length - suffix)...(length - 1)) : .unsatisfiable
        case (let start?, nil) where last.isEmpty && start >= 0:
            self = start < length ? .part(start...(length - 1)) : .unsatisfiable
        case (let start?, let end?) where start >= 0 && end >= start:
            self = start < length ? .part(start...min(end, length - 1)) : .unsatisfiable
        default:
            // A malformed range is ignored, as the RFC asks.
            self = .whole
        }
    }
}

private extension Substring {
    func trimmingCharacters(in set: String) -> Substring {
        var text = self
        while let first = text.first, set.contains(first) { text = text.dropFirst() }
        while let last = text.last, set.contains(last) { text = text.dropLast() }
        return text
    }
}
