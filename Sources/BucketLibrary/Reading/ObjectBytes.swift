import Foundation

/// The parts of one object's bytes read so far (its head, and any ranges a format's layout
/// asked for), by offset: what a layout looks at and what a metadata read is given, as a sparse
/// file of the object's size.
struct ObjectBytes: Sendable {
    /// The object's size in bytes.
    let size: Int64
    /// The parts read, by offset, not overlapping, in order.
    private(set) var parts: [(offset: Int64, data: Data)] = []

    init(size: Int64) {
        self.size = size
    }

    /// How many bytes are known.
    var knownCount: Int64 {
        parts.reduce(0) { $0 + Int64($1.data.count) }
    }

    /// Whether every byte of the object is known.
    var isWhole: Bool {
        knownCount == size
    }

    /// Adds the bytes read at `offset`; those already known are kept as they were, and none
    /// past the object's end is taken.
    mutating func add(_ data: Data, at offset: Int64) {
        let end = min(size, offset + Int64(data.count))
        var position = max(0, offset)
        while position < end, let gap = firstGap(from: position, limit: end - position), gap.lowerBound < end {
            let upper = min(gap.upperBound, end)
            let from = data.startIndex + Int(gap.lowerBound - offset)
            insert(data[from..<(from + Int(upper - gap.lowerBound))], at: gap.lowerBound)
            position = upper
        }
    }

    private mutating func insert(_ data: Data, at offset: Int64) {
        guard !data.isEmpty else { return }
        let index = parts.firstIndex { $0.offset > offset } ?? parts.endIndex
        parts.insert((offset, Data(data)), at: index)
    }

    /// The `count` bytes at `offset`, or `nil` unless all of them are known (or when they would
    /// run past the end of the object).
    func bytes(at offset: Int64, count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0, offset + Int64(count) <= size else { return nil }
        if count == 0 { return [] }
        var result: [UInt8] = []
        result.reserveCapacity(count)
        var position = offset
        for part in parts {
            let end = part.offset + Int64(part.data.count)
            guard end > position else { continue }
            guard part.offset <= position else { return nil }
            let take = Int(min(end, offset + Int64(count)) - position)
            let start = part.data.startIndex + Int(position - part.offset)
            result.append(contentsOf: part.data[start..<(start + take)])
            position += Int64(take)
            if result.count == count { return result }
        }
        return nil
    }

    /// The first unknown part of `range`, or `nil` when all of it is known.
    func missing(in range: Range<Int64>) -> Range<Int64>? {
        guard !range.isEmpty, let gap = firstGap(from: range.lowerBound, limit: Int64(range.count)), gap.lowerBound < range.upperBound else {
            return nil
        }
        return gap.lowerBound..<min(gap.upperBound, range.upperBound)
    }

    /// Whether every byte of `range` is known.
    func knows(_ range: Range<Int64>) -> Bool {
        range.isEmpty || bytes(at: range.lowerBound, count: Int(range.count)) != nil
    }

    /// The first unknown range at or after `offset`, up to `limit` bytes long (`nil` when
    /// everything from `offset` to the end is known).
    func firstGap(from offset: Int64, limit: Int64) -> Range<Int64>? {
        var position = max(0, offset)
        for part in parts {
            let end = part.offset + Int64(part.data.count)
            if end <= position { continue }
            if part.offset > position { return position..<min(part.offset, position + min(limit, size)) }
            position = end
        }
        return position < size ? position..<min(size, position + min(limit, size)) : nil
    }

    /// Writes the known bytes at their offsets into a new file of the object's size, the rest
    /// a hole (read as zeros, taking no room on disk).
    func writeSparseFile(at url: URL) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw ObjectBytesError(reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        guard ftruncate(descriptor, off_t(size)) == 0 else { throw ObjectBytesError(reason: String(cString: strerror(errno))) }
        for part in parts {
            try part.data.withUnsafeBytes { buffer in
                var written = 0
                while written < buffer.count {
                    let count = pwrite(descriptor, buffer.baseAddress! + written, buffer.count - written, off_t(part.offset) + off_t(written))
                    if count < 0, errno == EINTR { continue }
                    guard count > 0 else { throw ObjectBytesError(reason: String(cString: strerror(errno))) }
                    written += count
                }
            }
        }
    }
}

/// A head could not be written to a local file.
struct ObjectBytesError: Error, CustomStringConvertible {
    let reason: String
    var description: String { "cannot write the object's head to a temporary file: \(reason)" }
}
