import Foundation

/// Walks a JPEG from its first scan to the end of its first image, chunk by chunk, and says
/// which bytes of the file a rebuilt copy (``LocationFreeJPEG``) keeps from there.
///
/// Entropy-coded data is skipped at `memchr` speed: in it, `FF 00` is a stuffed data byte and
/// `FF D0`...`FF D7` restart markers, both data. Any other marker ends the data. Between the
/// scans of a progressive (or multi-scan) JPEG stand more SOS, DHT, DQT, DRI, DAC and DNL
/// segments, which are kept; APPn and COM segments there are dropped (at most
/// ``maximumDroppedSegments``). The first EOI ends the image and the walk: what follows it
/// (another image, a video, a trailer) is never looked at. Any other marker is an error.
///
/// Only the walk's state is held, never the bytes, so a file of any size is walked in
/// constant memory.
public struct JPEGScanWalker: Sendable {
    /// More metadata segments between scans than this make the file one not to rebuild.
    public static let maximumDroppedSegments = 64

    /// Whether the walk has reached the first image's EOI.
    public var isFinished: Bool { if case .finished = state { true } else { false } }

    private enum State: Sendable {
        /// Expecting the `FF` of a marker.
        case betweenSegments
        /// After one or more `FF` (the first at `start`); `inEntropyData` when they stand in a scan's data.
        case marker(start: Int64, inEntropyData: Bool)
        /// Reading the two length bytes of the segment with `marker` at `start`.
        case length(marker: UInt8, start: Int64, highByte: UInt8?)
        /// Inside the payload of the segment with `marker`, which ends before `end`.
        case segment(marker: UInt8, end: Int64)
        case entropyData
        case finished
    }

    private var state = State.betweenSegments
    /// The ranges of the file kept so far.
    private var keptRanges: [Range<Int64>] = []
    /// File offset of the next byte to consume.
    private var position: Int64
    /// Where the range being kept began.
    private var keptStart: Int64
    private var droppedSegments = 0

    /// A walk that starts at the first scan's SOS marker, at `firstScanOffset` in the file
    /// (``LocationFreeJPEG/firstScanOffset``).
    public init(firstScanOffset: Int64) {
        position = firstScanOffset
        keptStart = firstScanOffset
    }

    /// Walks the next bytes of the file, those that follow the bytes already consumed.
    /// - Returns: `true` once the first image has ended (the bytes after its EOI are not
    ///   looked at; consume no more), `false` while it goes on.
    /// - Throws: ``JPEGRebuildError`` for a marker that has no place in a scan's data or
    ///   between scans, or too many segments to drop.
    public mutating func consume(_ bytes: UnsafeRawBufferPointer) throws(JPEGRebuildError) -> Bool {
        let count = bytes.count
        var index = 0
        defer { position += Int64(index) }
        func offset(_ at: Int) -> Int64 { position + Int64(at) }
        while index < count {
            switch state {
            case .finished:
                return true
            case .entropyData:
                guard let found = memchr(bytes.baseAddress! + index, 0xFF, count - index) else {
                    index = count
                    continue
                }
                let at = bytes.baseAddress!.distance(to: UnsafeRawPointer(found))
                state = .marker(start: offset(at), inEntropyData: true)
                index = at + 1
            case .betweenSegments:
                let byte = bytes[index]
                guard byte == 0xFF else { throw .missingMarker(offset: offset(index), byte: byte) }
                state = .marker(start: offset(index), inEntropyData: false)
                index += 1
            case let .marker(start, inEntropyData):
                let code = bytes[index]
                index += 1
                switch code {
                case 0xFF:
                    break // fill
                case 0x00 where inEntropyData, 0xD0...0xD7 where inEntropyData:
                    state = .entropyData
                case 0xD9:
                    keep(upTo: offset(index))
                    state = .finished
                    return true
                case 0xC4, 0xCC, 0xDA, 0xDB, 0xDC, 0xDD, 0xE0...0xEF, 0xFE:
                    state = .length(marker: code, start: start, highByte: nil)
                default:
                    throw .unexpectedMarker(marker: code, offset: start)
                }
            case let .length(marker, start, highByte):
                let byte = bytes[index]
                index += 1
                guard let highByte else {
                    state = .length(marker: marker, start: start, highByte: byte)
                    continue
                }
                let length = Int64(highByte) << 8 | Int64(byte)
                guard length >= 2 else { throw .invalidSegmentLength(marker: marker, offset: start) }
                let end = offset(index) - 2 + length
                if marker == 0xFE || (0xE0...0xEF).contains(marker) {
                    droppedSegments += 1
                    guard droppedSegments <= Self.maximumDroppedSegments else {
                        throw .tooManyDroppedSegments(limit: Self.maximumDroppedSegments)
                    }
                    keep(upTo: start)
                    keptStart = end
                }
                state = .segment(marker: marker, end: end)
            case let .segment(marker, end):
                let left = end - offset(index)
                guard left <= Int64(count - index) else {
                    index = count
                    continue
                }
                index += Int(left)
                state = marker == 0xDA ? .entropyData : .betweenSegments
            }
        }
        return false
    }

    /// Every range of the file to send after the rebuilt header, in order.
    /// - Throws: ``JPEGRebuildError/missingEndOfImage(offset:)`` when the walk has not reached
    ///   the first image's EOI (call this once the file has ended).
    public func rangesToSend() throws(JPEGRebuildError) -> [Range<Int64>] {
        guard isFinished else { throw .missingEndOfImage(offset: position) }
        return keptRanges
    }

    /// The offset before which every byte's fate is known: the walk's position, or the start of
    /// a marker whose segment may yet be dropped.
    public var settledOffset: Int64 {
        switch state {
        case let .marker(start, _), let .length(_, start, _): start
        default: position
        }
    }

    /// The ranges to send that the walk has settled since the last call (all of them, before
    /// ``settledOffset``), in order, so that a copy streams while the file is still arriving.
    /// Each byte is given once; use this or ``rangesToSend()``, not both.
    public mutating func takeSettledRanges() -> [Range<Int64>] {
        var taken = keptRanges
        keptRanges = []
        if !isFinished, keptStart < settledOffset {
            taken.append(keptStart..<settledOffset)
            keptStart = settledOffset
        }
        return taken
    }

    private mutating func keep(upTo end: Int64) {
        if keptStart < end { keptRanges.append(keptStart..<end) }
    }
}
