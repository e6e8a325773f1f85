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

    /// A 64-bit checksum of `bytes`, four words at a time in four independent lanes (fast enough
    /// to check a large cache on every load: the lanes do not wait on one another).
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let prime: UInt64 = 0x0000_0100_0000_01B3
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (0xCBF2_9CE4_8422_2325, 0x8422_2325_CBF2_9CE4, 0x9E37_79B9_7F4A_7C15, 0x7F4A_7C15_9E37_79B9)
        var index = 0
        while index + 32 <= bytes.count {
            lanes.0 = (lanes.0 ^ bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* prime
            lanes.1 = (lanes.1 ^ bytes.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self)) &* prime
            lanes.2 = (lanes.2 ^ bytes.loadUnaligned(fromByteOffset: index + 16, as: UInt64.self)) &* prime
            lanes.3 = (lanes.3 ^ bytes.loadUnaligned(fromByteOffset: index + 24, as: UInt64.self)) &* prime
            lanes.0 ^= lanes.0 >> 29
            lanes.1 ^= lanes.1 >> 29
            lanes.2 ^= lanes.2 >> 29
            lanes.3 ^= lanes.3 >> 29
            index += 32
        }
        var hash = lanes.0
        for lane in [lanes.1, lanes.2, lanes.3] { hash = ((hash ^ lane) &* prime) ^ (hash >> 29) }
        while index < bytes.count {
            hash = (hash ^ UInt64(bytes[index])) &* prime
            index += 1
        }
        return hash ^ UInt64(bytes.count)
    }
}
