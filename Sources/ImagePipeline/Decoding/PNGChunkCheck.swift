import Foundation

/// Checks every chunk of a PNG against its CRC-32 before the file is decoded.
///
/// libvips (8.14, libpng) refuses a chunk with a bad CRC under fail-on-warning only most of the
/// time: the warning is raised while rows are read, and some renders finish without it, so the
/// same damaged file (PngSuite's `xcsn0g01.png`) was refused once and rendered — then cached —
/// the next time. Checked here, it is refused every time, on every path that decodes it.
enum PNGChunkCheck {
    /// Throws ``ImagePipelineError/undecodable(file:reason:)`` naming the first chunk whose
    /// CRC does not match, or a file that ends inside a chunk.
    static func verify(_ url: URL) throws {
        guard let handle = FileHandle(forReadingAtPath: url.path) else { return }
        defer { try? handle.close() }
        func read(_ count: Int) throws -> [UInt8] {
            guard let data = try handle.read(upToCount: count), data.count == count else {
                throw ImagePipelineError.undecodable(file: url.path, reason: "the PNG ends inside a chunk")
            }
            return [UInt8](data)
        }
        guard (try? read(8)) == signature else { return }
        while true {
            let head = try read(8)
            let length = head[0..<4].reduce(0) { $0 << 8 | Int($1) }
            var crc = CRC32.update(0xFFFF_FFFF, head[4..<8])
            var remaining = length
            while remaining > 0 {
                let part = try read(min(remaining, 1 << 20))
                crc = CRC32.update(crc, part[...])
                remaining -= part.count
            }
            let stored = try read(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            let type = String(decoding: head[4..<8], as: UTF8.self)
            guard stored == crc ^ 0xFFFF_FFFF else {
                throw ImagePipelineError.undecodable(file: url.path, reason: "the PNG's \(type) chunk fails its CRC check")
            }
            if type == "IEND" { return }
        }
    }

    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
}

/// CRC-32 as PNG (and zlib) compute it, a byte at a time from a table.
private enum CRC32 {
    static let table: [UInt32] = (0..<256).map { index in
        (0..<8).reduce(UInt32(index)) { crc, _ in crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }

    static func update(_ crc: UInt32, _ bytes: ArraySlice<UInt8>) -> UInt32 {
        table.withUnsafeBufferPointer { table in
            bytes.reduce(crc) { crc, byte in table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
    }
}
