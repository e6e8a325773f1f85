import Foundation

/// A big-endian TIFF block laid out by hand, so a test can point directories where no writer
/// would (a GPS directory from IFD1 or from the Exif IFD, a tag twice) without relying on the
/// encoder under test.
public struct HandMadeTIFF {
    /// An entry's value; ``directory(_:)`` is a LONG holding the offset of another directory.
    public enum Value {
        case bytes([UInt8])
        case ascii(String)
        case short(UInt16)
        case long(UInt32)
        case rationals([(UInt32, UInt32)])
        case undefined([UInt8])
        /// The offset of the directory at this index in ``directories``.
        case directory(Int)
        /// The same offset written as a SLONG, as some cameras write the GPS pointer.
        case signedDirectory(Int)
    }

    /// One directory: its entries in the order given (not sorted: a tag may come twice) and
    /// the index of the directory its next-IFD link points to.
    public struct Directory {
        public var entries: [(tag: UInt16, value: Value)]
        public var next: Int?

        public init(_ entries: [(tag: UInt16, value: Value)], next: Int? = nil) {
            self.entries = entries
            self.next = next
        }
    }

    /// The directories, laid out in this order after the header; the first is IFD0.
    public var directories: [Directory]

    public init(_ directories: [Directory]) {
        self.directories = directories
    }

    /// The TIFF block: `MM`, 42, the offset of IFD0 (8), then every directory with its values.
    public var bytes: [UInt8] {
        var offsets: [Int] = []
        var offset = 8
        for directory in directories {
            offsets.append(offset)
            offset += 2 + 12 * directory.entries.count + 4
                + directory.entries.map { Self.payload($0.value, offsets: nil).count }.filter { $0 > 4 }.map { $0 + $0 % 2 }.reduce(0, +)
        }
        var block: [UInt8] = [0x4D, 0x4D, 0, 42] + Self.long(8)
        for (index, directory) in directories.enumerated() {
            var values: [UInt8] = []
            let valuesStart = offsets[index] + 2 + 12 * directory.entries.count + 4
            block += Self.short(UInt16(directory.entries.count))
            for (tag, value) in directory.entries {
                var payload = Self.payload(value, offsets: offsets)
                block += Self.short(tag) + Self.short(Self.type(of: value)) + Self.long(UInt32(Self.count(of: value)))
                if payload.count <= 4 {
                    block += payload + [UInt8](repeating: 0, count: 4 - payload.count)
                } else {
                    block += Self.long(UInt32(valuesStart + values.count))
                    if payload.count % 2 == 1 { payload.append(0) }
                    values += payload
                }
            }
            block += Self.long(UInt32(directory.next.map { offsets[$0] } ?? 0)) + values
        }
        return block
    }

    /// The payload of an EXIF APP1 segment holding this block: `Exif\0\0` and the block.
    public func exifPayload(signature: [UInt8] = Array("Exif".utf8) + [0, 0]) -> [UInt8] {
        signature + bytes
    }

    private static func payload(_ value: Value, offsets: [Int]?) -> [UInt8] {
        switch value {
        case let .bytes(bytes), let .undefined(bytes): bytes
        case let .ascii(text): Array(text.utf8) + [0]
        case let .short(number): short(number)
        case let .long(number): long(number)
        case let .rationals(pairs): pairs.flatMap { long($0.0) + long($0.1) }
        case let .directory(index), let .signedDirectory(index): long(UInt32(offsets?[index] ?? 0))
        }
    }

    private static func type(of value: Value) -> UInt16 {
        switch value {
        case .bytes: 1
        case .ascii: 2
        case .short: 3
        case .long, .directory: 4
        case .rationals: 5
        case .undefined: 7
        case .signedDirectory: 9
        }
    }

    private static func count(of value: Value) -> Int {
        switch value {
        case let .bytes(bytes), let .undefined(bytes): bytes.count
        case let .ascii(text): text.utf8.count + 1
        case .short, .long, .directory, .signedDirectory: 1
        case let .rationals(pairs): pairs.count
        }
    }

    private static func short(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    private static func long(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
}
