import AssetsKit
import Foundation
import Synchronization

/// A disk cache of rendered images with a byte budget.
///
/// Each entry is one file: a header (magic, key, pixel size, format, payload length and
/// checksum) and the encoded image. Files are written under a temporary name and renamed into
/// place, so a crash never leaves a half file under a real name; a file that is damaged anyway
/// (truncated, altered, or written for another key) fails its check, is deleted and is never
/// served. When the budget is exceeded the least recently used files go first.
///
/// The stock of the files already there is taken at the first write, not when the cache is
/// opened: reading needs none of it (a file's recency is its modification time), so a command
/// that only reads, or a server starting, does not stat a large cache file by file.
public final class DiskImageCache: ImageCaching {
    public let directory: URL
    public let byteLimit: Int64
    /// `nil` until the stock is taken.
    private let index = Mutex<DiskIndex?>(nil)

    private static let magic: [UInt8] = Array("APIC1\n".utf8)
    private static let fileExtension = "apic"

    /// Opens (and creates) a cache in `directory`.
    public init(directory: URL, byteLimit: Int64) throws {
        self.directory = directory
        self.byteLimit = max(0, byteLimit)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Runs `body` on the stock of files, taking it first if nobody has yet.
    private func withIndex<Value>(_ body: (inout DiskIndex) -> Value) -> Value {
        index.withLock { index in
            if index == nil { index = DiskIndex.scan(directory, fileExtension: Self.fileExtension) }
            return body(&index!)
        }
    }

    public func image(for key: RenditionKey) -> ImageResult? {
        let name = Self.fileName(for: key)
        let path = directory.appendingPathComponent(name).path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_size > 0, status.st_size < 512 << 20 else {
            close(fd)
            discard(name)
            return nil
        }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        let read = bytes.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
        futimens(fd, nil) // recency for eviction, across restarts too
        close(fd)
        guard read == bytes.count, let image = Self.decode(bytes, for: key) else {
            discard(name)
            return nil
        }
        index.withLock { $0?.touch(name) }
        return image
    }

    public func store(_ image: ImageResult, for key: RenditionKey) {
        let bytes = Self.encode(image, for: key)
        guard Int64(bytes.count) <= byteLimit else { return }
        let name = Self.fileName(for: key)
        let final = directory.appendingPathComponent(name)
        let temporary = directory.appendingPathComponent(".\(name).\(UUID().uuidString).tmp")
        do {
            try Data(bytes).write(to: temporary)
            guard rename(temporary.path, final.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            return
        }
        let evicted = withIndex { $0.record(name, bytes: Int64(bytes.count), limit: byteLimit) }
        for victim in evicted { unlink(directory.appendingPathComponent(victim).path) }
    }

    public func removeAll() {
        let names = withIndex { $0.removeAll() }
        for name in names { unlink(directory.appendingPathComponent(name).path) }
    }

    /// The bytes the cache's files take now.
    public var totalBytes: Int64 { withIndex { $0.totalBytes } }

    private func discard(_ name: String) {
        unlink(directory.appendingPathComponent(name).path)
        index.withLock { $0?.forget(name) }
    }

    /// The name of the file that holds `key`'s image.
    public static func fileName(for key: RenditionKey) -> String {
        String(FNV1a.hash(Array(key.description.utf8)), radix: 16) + "." + fileExtension
    }

    // MARK: File format

    private static func encode(_ image: ImageResult, for key: RenditionKey) -> [UInt8] {
        let keyBytes = Array(key.description.utf8)
        var bytes = magic
        bytes.reserveCapacity(magic.count + 40 + keyBytes.count + image.data.count)
        append(UInt32(keyBytes.count), to: &bytes)
        bytes += keyBytes
        append(UInt32(image.pixelSize.width), to: &bytes)
        append(UInt32(image.pixelSize.height), to: &bytes)
        bytes.append(image.format == .jpeg ? 0 : 1)
        append(UInt64(image.data.count), to: &bytes)
        append(image.data.withUnsafeBytes { FNV1a.hash($0) }, to: &bytes)
        bytes += image.data
        return bytes
    }

    private static func decode(_ bytes: [UInt8], for key: RenditionKey) -> ImageResult? {
        var reader = ByteReader(bytes: bytes)
        guard reader.take(magic.count) == magic[...],
              let keyLength = reader.uint32(), let keyBytes = reader.take(Int(keyLength)),
              String(decoding: keyBytes, as: UTF8.self) == key.description,
              let width = reader.uint32(), let height = reader.uint32(), let formatCode = reader.take(1)?.first,
              let length = reader.uint64(), let checksum = reader.uint64(),
              length == UInt64(reader.remaining), let payload = reader.take(Int(length)),
              payload.withUnsafeBytes({ FNV1a.hash($0) }) == checksum
        else { return nil }
        return ImageResult(data: Data(payload), format: formatCode == 0 ? .jpeg : .webp,
                           pixelSize: PixelSize(width: Int(width), height: Int(height)), isDegraded: false, source: .diskCache)
    }

    private static func append<Integer: FixedWidthInteger>(_ value: Integer, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }
}

/// Reads little-endian fields from a cache file, refusing to run past its end.
private struct ByteReader {
    let bytes: [UInt8]
    var offset = 0

    var remaining: Int { bytes.count - offset }

    mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, count <= remaining else { return nil }
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    mutating func uint32() -> UInt32? {
        take(4).map { $0.reversed().reduce(0) { $0 << 8 | UInt32($1) } }
    }

    mutating func uint64() -> UInt64? {
        take(8).map { $0.reversed().reduce(0) { $0 << 8 | UInt64($1) } }
    }
}

/// The cache's files, their sizes and when each was last used.
private struct DiskIndex {
    struct Entry {
        var bytes: Int64
        var lastUse: UInt64
    }

    private var entries: [String: Entry] = [:]
    private var clock: UInt64 = 0
    private(set) var totalBytes: Int64 = 0

    static func scan(_ directory: URL, fileExtension: String) -> DiskIndex {
        var index = DiskIndex()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var found: [(String, Int64, Double)] = []
        for name in names {
            let path = directory.appendingPathComponent(name).path
            if name.hasSuffix(".tmp") { unlink(path); continue } // left by a crash
            guard name.hasSuffix("." + fileExtension) else { continue }
            var status = stat()
            guard stat(path, &status) == 0 else { continue }
            found.append((name, Int64(status.st_size), Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9))
        }
        for (name, bytes, _) in found.sorted(by: { $0.2 < $1.2 }) {
            index.clock += 1
            index.entries[name] = Entry(bytes: bytes, lastUse: index.clock)
            index.totalBytes += bytes
        }
        return index
    }

    mutating func touch(_ name: String) {
        clock += 1
        entries[name]?.lastUse = clock
    }

    /// Records a written file and returns the files to delete to get back under `limit`
    /// (down to 90 % of it, so eviction runs now and then rather than on every store).
    mutating func record(_ name: String, bytes: Int64, limit: Int64) -> [String] {
        forget(name)
        clock += 1
        entries[name] = Entry(bytes: bytes, lastUse: clock)
        totalBytes += bytes
        guard totalBytes > limit else { return [] }
        var victims: [String] = []
        for (victim, entry) in entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) where totalBytes > limit * 9 / 10 {
            victims.append(victim)
            totalBytes -= entry.bytes
            entries[victim] = nil
        }
        return victims
    }

    mutating func forget(_ name: String) {
        if let entry = entries.removeValue(forKey: name) { totalBytes -= entry.bytes }
    }

    mutating func removeAll() -> [String] {
        defer { entries = [:]; totalBytes = 0 }
        return Array(entries.keys)
    }
}
