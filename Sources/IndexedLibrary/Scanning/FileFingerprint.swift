import Foundation
import ImagePipeline

/// A quick content fingerprint that recognises a file after it moved: its byte size and a
/// hash of its first and last 64 KiB. Reads at most 128 KiB, whatever the file's size.
enum FileFingerprint {
    static let sampleBytes = 64 << 10

    /// The fingerprint of the file at `url`, e.g. `5342211:9f86d081884c7d65`.
    static func of(_ url: URL, byteSize: Int64) throws -> String {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FingerprintError(path: url.path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var sample = [UInt8](repeating: 0, count: 2 * sampleBytes)
        let headLength = Int(min(Int64(sampleBytes), byteSize))
        let tailLength = Int(min(Int64(sampleBytes), max(0, byteSize - Int64(headLength))))
        let read = sample.withUnsafeMutableBytes { buffer in
            let head = pread(fd, buffer.baseAddress, headLength, 0)
            guard head == headLength, tailLength > 0 else { return head }
            let tail = pread(fd, buffer.baseAddress! + headLength, tailLength, off_t(byteSize) - off_t(tailLength))
            return tail < 0 ? tail : head + tail
        }
        guard read == headLength + tailLength else {
            throw FingerprintError(path: url.path, reason: read < 0 ? String(cString: strerror(errno)) : "the file shrank while it was read")
        }
        let hash = sample.withUnsafeBytes { FNV1a.hash(UnsafeRawBufferPointer(rebasing: $0.prefix(Int(read)))) }
        return "\(byteSize):\(String(hash, radix: 16))"
    }
}

/// A file whose fingerprint could not be taken.
struct FingerprintError: Error, CustomStringConvertible {
    let path: String
    let reason: String

    var description: String { "\(path): cannot read for its fingerprint: \(reason)" }
}
