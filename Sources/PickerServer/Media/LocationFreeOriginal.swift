import AssetsKit
import Foundation
import Hummingbird
import ImageMetadata
import NIOPosix

extension MediaResponder {
    /// Header bytes read at most to find a JPEG's first scan; a longer header is answered as a rendition.
    static let maximumJPEGHeaderBytes = 8 << 20

    /// A photo's original bytes without where it was taken (a base URL's `=d`), as Google's
    /// Picker API hands them over; the file on disk is never changed.
    ///
    /// A JPEG is rebuilt from what it must keep (``LocationFreeJPEG``): a new EXIF segment
    /// with only orientation, dates, camera, lens, exposure, pixel size and colour space, the
    /// ICC profile, JFIF and Adobe's colour transform, the frame and tables, and the first
    /// image's scans up to its EOI; every other segment, and anything after that EOI, is left
    /// out. Only the header (the segments before the first scan, read in growing steps up to
    /// ``maximumJPEGHeaderBytes``) is held in memory: the scans are walked once on NIO's
    /// thread pool to find their end (``JPEGScanWalker``), so the length is known before the
    /// answer starts, and then streamed from the file, only while it is still the version
    /// first seen. A photo that cannot be rebuilt that way (another format, a damaged or
    /// over-long header, no EOI) is answered as a full-size JPEG rendition, which carries no
    /// metadata at all. An original kept elsewhere and not here is rebuilt as it comes from the
    /// bucket (``streamedWithoutLocation(_:)``); one that cannot be is answered from its local
    /// copy once it is here (``localOriginal(of:departure:progress:)``), joining the same transfer.
    func originalWithoutLocation(of asset: Asset) async throws -> Response {
        if let arriving = try await arrivingOriginal(of: asset), arriving.contentType == "image/jpeg" {
            if let streamed = try await streamedWithoutLocation(arriving) { return streamed }
            let answer = try await locallyWithoutLocation(asset)
            withExtendedLifetime(arriving) {} // its transfer is joined, not stopped and begun again
            return answer
        }
        return try await locallyWithoutLocation(asset)
    }

    /// ``originalWithoutLocation(of:)`` from the local file.
    private func locallyWithoutLocation(_ asset: Asset) async throws -> Response {
        let original = try await localOriginal(of: asset)
        if original.contentType == "image/jpeg" {
            // Read on NIO's thread pool: a blocking read must not hold a cooperative thread.
            let file = original.file
            if let (version, rebuilt, ranges) = try await NIOThreadPool.singleton.runIfActive({ Self.locationFreeJPEG(file) }) {
                var headers = Self.downloadHeaders(contentType: "image/jpeg")
                let body = version.body(of: file, ranges: ranges, after: ByteBuffer(data: rebuilt.header))
                headers[.contentLength] = body.contentLength.map(String.init)
                return Response(status: .ok, headers: headers, body: body)
            }
        }
        let result: ImageResult
        do {
            result = try await library.finalImage(for: asset, request: .fullResolution(format: .jpeg, quality: 95))
        } catch {
            throw Self.apiError(error, asset: asset)
        }
        var headers = Self.downloadHeaders(contentType: result.format.mimeType)
        headers[.contentLength] = String(result.data.count)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(data: result.data)))
    }

    /// The open JPEG `file` as it is now, its rebuilt header, and the ranges of the file that
    /// follow it; `nil` when it cannot be rebuilt within the bound.
    private static func locationFreeJPEG(_ file: OpenOriginal) -> (OriginalFileVersion, LocationFreeJPEG, [ClosedRange<Int64>])? {
        guard let version = OriginalFileVersion(file), let rebuilt = rebuiltHeader(of: file, version: version) else { return nil }
        var walker = JPEGScanWalker(firstScanOffset: Int64(rebuilt.firstScanOffset))
        guard (try? version.scan(of: file, from: Int64(rebuilt.firstScanOffset), { try walker.consume($0) })) == true,
              let ranges = try? walker.rangesToSend() else { return nil }
        return (version, rebuilt, ranges.map { $0.lowerBound...($0.upperBound - 1) })
    }

    /// The rebuilt header of the open JPEG `file`, read in growing prefixes while it is still
    /// `version`; `nil` when it cannot be rebuilt or runs past ``maximumJPEGHeaderBytes``.
    private static func rebuiltHeader(of file: OpenOriginal, version: OriginalFileVersion) -> LocationFreeJPEG? {
        var wanted = 64 << 10
        while true {
            guard let prefix = version.prefix(of: file, count: wanted) else { return nil }
            do {
                if let rebuilt = try LocationFreeJPEG.header(in: prefix) { return rebuilt }
            } catch {
                return nil
            }
            // A short read is the whole file, and it ends before its first scan.
            guard prefix.count == wanted, wanted < maximumJPEGHeaderBytes else { return nil }
            wanted = min(wanted * 4, maximumJPEGHeaderBytes)
        }
    }

    /// The headers of a photo's bytes without location (never kept by a cache).
    static func downloadHeaders(contentType: String) -> HTTPFields {
        [.contentType: contentType, .cacheControl: "private, no-store"]
    }
}
