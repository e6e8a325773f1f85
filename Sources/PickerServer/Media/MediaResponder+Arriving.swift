import AssetsKit
import Foundation
import HTTPTypes
import Hummingbird
import ImageMetadata

/// Originals kept elsewhere, passed on to the client as they come from the bucket
/// (``AssetsKit/ArrivingOriginal``) rather than after the whole transfer: the first byte leaves
/// as soon as the bucket's first bytes are here. The transfer is the one every caller shares,
/// into the local cache; the answer's last byte leaves only once the whole original is here and
/// checked to be the version the library knows, so a client never holds a complete answer of
/// another version (a failure cuts the answer short).
extension MediaResponder {
    /// The original of `asset` as it comes, when it is kept elsewhere and not here; `nil`
    /// otherwise (answer from the local file).
    /// - Throws: What ``localOriginal(of:departure:progress:)`` throws.
    func arrivingOriginal(of asset: Asset) async throws -> ArrivingOriginal? {
        guard let remote = library.remoteOriginals else { return nil }
        do {
            return try await Self.whileClientWaits(ClientDeparture.current) { try await remote.arrivingOriginal(of: asset) }
        } catch {
            throw originalError(error, asset: asset)
        }
    }

    /// The whole original as it comes (`=dv`, a person's download without `Range`): its length
    /// known from the index, no validator until it is here.
    func streamed(_ arriving: ArrivingOriginal) -> Response {
        var headers = originalHeaders(contentType: arriving.contentType, filename: arriving.filename)
        headers[.contentLength] = String(arriving.byteSize)
        let departure = ClientDeparture.current
        return Response(status: .ok, headers: headers, body: ResponseBody(contentLength: Int(arriving.byteSize)) { writer in
            while let chunk = try await Self.nextChunk(of: arriving, departure: departure) {
                try await writer.write(ByteBuffer(data: chunk))
            }
            try await writer.finish(nil)
        })
    }

    /// A JPEG without where it was taken (`=d`), rebuilt as it comes: the header once the bytes
    /// before the first scan are here (``LocationFreeJPEG``), then the scans as
    /// ``JPEGScanWalker`` settles them, chunked (the length is known only at the end). `nil`
    /// when the header cannot be rebuilt; the bytes read stay unsent, and the caller answers
    /// from the whole original as for a local one.
    func streamedWithoutLocation(_ arriving: ArrivingOriginal) async throws -> Response? {
        var prefix = Data()
        var rebuilt: LocationFreeJPEG?
        while rebuilt == nil {
            guard prefix.count < Self.maximumJPEGHeaderBytes, let chunk = try await Self.nextChunk(of: arriving, departure: ClientDeparture.current) else { return nil }
            prefix.append(chunk)
            do {
                rebuilt = try LocationFreeJPEG.header(in: prefix)
            } catch {
                return nil
            }
        }
        guard let rebuilt else { return nil }
        let scans = prefix.suffix(from: prefix.startIndex + rebuilt.firstScanOffset)
        let headers = Self.downloadHeaders(contentType: "image/jpeg")
        let departure = ClientDeparture.current
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            try await writer.write(ByteBuffer(data: rebuilt.header))
            var copy = ArrivingScans(firstScanOffset: Int64(rebuilt.firstScanOffset))
            var next: Data? = Data(scans)
            while let chunk = next, !copy.isFinished {
                do {
                    for part in try copy.feed(chunk) { try await writer.write(ByteBuffer(data: part)) }
                } catch let error as JPEGRebuildError {
                    // Cut short; the transfer goes on into the cache, so asking again answers
                    // from the local file (a rendition, for a JPEG that cannot be rebuilt).
                    while try await Self.nextChunk(of: arriving, departure: departure) != nil {}
                    throw error
                }
                next = copy.isFinished ? nil : try await Self.nextChunk(of: arriving, departure: departure)
            }
            guard copy.isFinished else { throw JPEGRebuildError.missingEndOfImage(offset: copy.position) }
            // What follows the image is not sent, but the answer ends only once the transfer
            // has brought and checked the whole original.
            while try await Self.nextChunk(of: arriving, departure: departure) != nil {}
            try await writer.finish(nil)
        })
    }

    /// The next chunk of `arriving`, waited for only while the client is there: when it leaves,
    /// the wait stops, and with it the transfer unless another caller waits for it.
    private static func nextChunk(of arriving: ArrivingOriginal, departure: ClientDeparture?) async throws -> Data? {
        try await whileClientWaits(departure) { try await arriving.nextChunk() }
    }

    /// What a failure to bring an original becomes: 502 `fetchFailed` when the place it is kept
    /// could not be reached, else the API's error for it.
    func originalError(_ error: any Error, asset: Asset) -> any Error {
        switch error {
        case let error as APIError: error
        case LibraryError.unreadableFile(_, let reason) where library.remoteOriginals != nil: Self.fetchFailed(asset, reason: reason)
        default: Self.apiError(error, asset: asset)
        }
    }
}

/// The scans of a JPEG walked as they arrive: the bytes each chunk settles as kept
/// (``JPEGScanWalker/takeSettledRanges()``), as views of the chunks (no copy), holding back only
/// the few bytes not settled yet.
struct ArrivingScans {
    private var walker: JPEGScanWalker
    /// The bytes from ``pendingStart`` to the walk's position that were not settled yet.
    private var pending = Data()
    private var pendingStart: Int64

    init(firstScanOffset: Int64) {
        walker = JPEGScanWalker(firstScanOffset: firstScanOffset)
        pendingStart = firstScanOffset
    }

    var isFinished: Bool { walker.isFinished }
    /// How far the walk has come, in file offsets.
    var position: Int64 { pendingStart + Int64(pending.count) }

    /// Walks `chunk` (the bytes after those fed before) and answers the bytes now settled as kept, in order.
    mutating func feed(_ chunk: Data) throws(JPEGRebuildError) -> [Data] {
        let chunkStart = position
        let outcome = chunk.withUnsafeBytes { bytes in Result { () throws(JPEGRebuildError) in try walker.consume(bytes) } }
        _ = try outcome.get()
        var parts: [Data] = []
        for range in walker.takeSettledRanges() {
            // A range may begin in the bytes held back and go on into this chunk.
            if range.lowerBound < chunkStart {
                let upper = min(range.upperBound, chunkStart)
                parts.append(pending.subdata(in: Int(range.lowerBound - pendingStart)..<Int(upper - pendingStart)))
            }
            if range.upperBound > chunkStart {
                let lower = max(range.lowerBound, chunkStart)
                let base = chunk.startIndex - Int(chunkStart)
                parts.append(chunk[(base + Int(lower))..<(base + Int(range.upperBound))])
            }
        }
        let end = chunkStart + Int64(chunk.count)
        let settled = walker.isFinished ? end : walker.settledOffset
        if settled >= chunkStart {
            let base = chunk.startIndex - Int(chunkStart)
            pending = settled < end ? Data(chunk[(base + Int(settled))...]) : Data()
        } else {
            pending = pending.subdata(in: Int(settled - pendingStart)..<pending.count) + chunk
        }
        pendingStart = min(settled, end)
        return parts
    }
}
