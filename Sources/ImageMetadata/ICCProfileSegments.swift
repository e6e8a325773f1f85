/// The APP2 `ICC_PROFILE` segments of a JPEG, which carry its colour profile in numbered chunks.
///
/// A profile is kept only when its chunks form one whole sequence, as libjpeg's
/// `jpeg_read_icc_profile` requires: every chunk states the same count N, and the sequence
/// numbers are 1...N, each once. A broken sequence is one decoders ignore, so it is dropped.
struct ICCProfileSegments {
    /// The twelve bytes that open each chunk's payload.
    static let signature: [UInt8] = Array("ICC_PROFILE".utf8) + [0]

    /// The chunks seen so far, each with its whole segment (marker, length, payload).
    private var chunks: [(sequence: UInt8, count: UInt8, segment: [UInt8])] = []

    /// Whether `payload`, an APP2 segment's payload, is a chunk of an ICC profile.
    static func isChunk(_ payload: ArraySlice<UInt8>) -> Bool {
        payload.count > signature.count + 2 && payload.starts(with: signature)
    }

    /// Keeps the chunk whose payload is `payload` (one for which ``isChunk(_:)`` holds).
    mutating func append(payload: ArraySlice<UInt8>) {
        let sequence = payload[payload.startIndex + Self.signature.count]
        let count = payload[payload.startIndex + Self.signature.count + 1]
        let segment = [0xFF, 0xE2] + ExifByteOrder.bigEndian.bytes(of: UInt16(payload.count + 2)) + payload
        chunks.append((sequence, count, segment))
    }

    /// The segments in sequence order, or none when they are not one whole sequence.
    var orderedSegments: [UInt8] {
        guard let count = chunks.first?.count, count > 0, chunks.count == Int(count),
              chunks.allSatisfy({ $0.count == count }),
              Set(chunks.map(\.sequence)) == Set(1...count)
        else { return [] }
        return chunks.sorted { $0.sequence < $1.sequence }.flatMap(\.segment)
    }
}
