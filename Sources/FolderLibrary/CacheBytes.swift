import Foundation

/// Appends fixed-width little-endian values and length-prefixed strings to a byte buffer: the
/// encoding of ``FolderCacheFile``.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    mutating func integer<Value: FixedWidthInteger>(_ value: Value) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func double(_ value: Double) {
        integer(value.bitPattern)
    }

    mutating func append(_ other: [UInt8]) {
        bytes.append(contentsOf: other)
    }

    mutating func flag(_ value: Bool) {
        bytes.append(value ? 1 : 0)
    }

    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            integer(UInt32(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }
}

/// Reads what a ``ByteWriter`` wrote; any read past the end throws, so a truncated or foreign
/// file is refused rather than misread.
struct ByteReader {
    struct OutOfBounds: Error {}

    private let buffer: UnsafeRawBufferPointer
    /// Where the next read starts.
    private(set) var offset: Int

    init(_ buffer: UnsafeRawBufferPointer, offset: Int = 0) {
        self.buffer = buffer
        self.offset = offset
    }

    /// Passes over `count` bytes.
    mutating func skip(_ count: Int) throws {
        guard count >= 0, buffer.count - offset >= count else { throw OutOfBounds() }
        offset += count
    }

    var isAtEnd: Bool { offset == buffer.count }

    mutating func integer<Value: FixedWidthInteger>(_: Value.Type = Value.self) throws -> Value {
        let size = MemoryLayout<Value>.size
        guard buffer.count - offset >= size else { throw OutOfBounds() }
        defer { offset += size }
        return Value(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: Value.self))
    }

    mutating func double() throws -> Double {
        Double(bitPattern: try integer(UInt64.self))
    }

    mutating func flag() throws -> Bool {
        try integer(UInt8.self) != 0
    }

    mutating func string() throws -> String {
        let count = Int(try integer(UInt32.self))
        guard buffer.count - offset >= count else { throw OutOfBounds() }
        defer { offset += count }
        return String(decoding: UnsafeRawBufferPointer(rebasing: buffer[offset..<(offset + count)]), as: UTF8.self)
    }

    /// A 64-bit checksum of `bytes`, a word at a time (fast enough to check a large cache on every load).
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        var index = 0
        while index + 8 <= bytes.count {
            hash = (hash ^ bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0x0000_0100_0000_01B3
            hash ^= hash >> 29
            index += 8
        }
        while index < bytes.count {
            hash = (hash ^ UInt64(bytes[index])) &* 0x0000_0100_0000_01B3
            index += 1
        }
        return hash ^ UInt64(bytes.count)
    }
}
