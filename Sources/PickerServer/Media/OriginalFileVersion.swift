import AssetsKit
import Foundation
import Hummingbird
import ImagePipeline

/// One version of an original file, as its open descriptor says now: device, inode, size and
/// modification time in nanoseconds. Its ETag is the validator of the original's bytes, so
/// replacing the file (a new inode, size or time) changes the tag: an `If-Range` naming the old
/// tag gets the whole new file, never a range of it spliced onto the old one. The bytes are
/// read from that descriptor (the file the library opened, confined to it), and only while it
/// is still this version; a file written over between the answer's head and its bytes ends the
/// answer short (its `Content-Length` unmet), never with other bytes.
struct OriginalFileVersion: Equatable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modified: Int64

    /// The version of the open `file` now; `nil` when it is no longer readable as a regular file.
    init?(_ file: OpenOriginal) {
        var status = stat()
        guard fstat(file.descriptor, &status) == 0 else { return nil }
        self.init(status)
    }

    private init?(_ status: stat) {
        guard (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
    }

    /// A strong ETag for this version of `asset`'s original.
    func entityTag(of asset: UUID) -> String {
        let text = "\(asset)|\(device)|\(inode)|\(size)|\(modified)"
        return "\"\(String(FNV1a.hash(Array(text.utf8)), radix: 16))\""
    }

    /// Whether `file` is still this version.
    private func matches(_ file: OpenOriginal) -> Bool {
        OriginalFileVersion(file) == self
    }

    /// The bytes of `ranges` of `file`, one after the other, read only while it is still this
    /// version, after `leading` bytes (e.g. a rewritten header) when given. The body holds
    /// `file` open until it is written.
    func body(of file: OpenOriginal, ranges: [ClosedRange<Int64>], after leading: ByteBuffer? = nil) -> ResponseBody {
        let length = ranges.reduce(leading?.readableBytes ?? 0) { $0 + Int($1.upperBound - $1.lowerBound + 1) }
        return ResponseBody(contentLength: length) { writer in
            guard matches(file) else { throw OriginalChanged() }
            if let leading { try await writer.write(leading) }
            for range in ranges {
                var offset = range.lowerBound
                while offset <= range.upperBound {
                    let count = Int(min(Int64(Self.chunk), range.upperBound - offset + 1))
                    var buffer = ByteBufferAllocator().buffer(capacity: count)
                    let read = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { bytes in
                        max(0, pread(file.descriptor, bytes.baseAddress, count, off_t(offset)))
                    }
                    guard read > 0 else { throw OriginalChanged() }
                    offset += Int64(read)
                    try await writer.write(buffer)
                }
            }
            try await writer.finish(nil)
        }
    }

    /// Reads `file` from `offset` on, in chunks of one buffer, while it is still this version,
    /// handing each chunk to `consume` until it returns `true` or the file ends. Only the one
    /// buffer is held, whatever the file's size.
    /// - Returns: `false` when the file is no longer this version or cannot be read.
    func scan(of file: OpenOriginal, from offset: Int64, _ consume: (UnsafeRawBufferPointer) throws -> Bool) rethrows -> Bool {
        guard matches(file) else { return false }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.scanChunk, alignment: 1)
        defer { buffer.deallocate() }
        var position = offset
        while true {
            let read = pread(file.descriptor, buffer.baseAddress, buffer.count, off_t(position))
            guard read >= 0 else { return false }
            guard read > 0 else { return true }
            position += Int64(read)
            if try consume(UnsafeRawBufferPointer(rebasing: buffer[..<read])) { return true }
        }
    }

    /// The first bytes of `file`, up to `count`, read only while it is still this version;
    /// `nil` when it is not.
    func prefix(of file: OpenOriginal, count: Int) -> Data? {
        guard matches(file) else { return nil }
        var bytes = Data(count: count)
        var filled = 0
        while filled < count {
            let read = bytes.withUnsafeMutableBytes { pread(file.descriptor, $0.baseAddress! + filled, count - filled, off_t(filled)) }
            guard read > 0 else { break }
            filled += read
        }
        return bytes.prefix(filled)
    }

    private static let chunk = 128 << 10
    private static let scanChunk = 1 << 20

    /// The original changed or vanished while it was being sent.
    struct OriginalChanged: Error {}
}
