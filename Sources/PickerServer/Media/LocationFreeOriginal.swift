import AssetsKit
import Foundation
import Hummingbird
import ImageMetadata
import NIOPosix

extension MediaResponder {
    /// Header bytes read at most to find a JPEG's first scan; a longer header is answered as a rendition.
    static let maximumJPEGHeaderBytes = 8 << 20

    /// A photo's original bytes without where it was taken (a base URL's `=d`), as Google's
    /// Picker API hands them over: the GPS values of a JPEG's EXIF are zeroed and its XMP
    /// dropped; the file on disk is never changed. Only the JPEG's header (the segments before
    /// its first scan, read in growing steps up to ``maximumJPEGHeaderBytes``) is held in
    /// memory: the image data after it is streamed from the file as it is. A photo whose
    /// location cannot be removed that way (another format, a damaged or over-long header) is
    /// answered as a full-size JPEG rendition, which carries no metadata at all.
    func originalWithoutLocation(of asset: Asset) async throws -> Response {
        let original: OriginalResource
        do {
            original = try await library.originalFile(for: asset)
        } catch {
            throw Self.apiError(error, asset: asset)
        }
        if original.contentType == "image/jpeg" {
            // Read on NIO's thread pool: a blocking read must not hold a cooperative thread.
            let file = original.file
            let cleaned = try await NIOThreadPool.singleton.runIfActive { Self.locationFreeJPEG(file) }
            if let (version, header, rest) = cleaned {
                var headers = Self.downloadHeaders(contentType: "image/jpeg")
                headers[.contentLength] = String(header.count + Int(version.size) - rest)
                guard Int64(rest) < version.size else {
                    return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(data: header)))
                }
                return Response(status: .ok, headers: headers,
                                body: version.body(of: file, range: Int64(rest)...(version.size - 1), after: ByteBuffer(data: header)))
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

    /// The open JPEG `file` as it is now, its header without location, and the offset from which
    /// its bytes follow unchanged; `nil` when the header cannot be cleaned within the bound.
    private static func locationFreeJPEG(_ file: OpenOriginal) -> (OriginalFileVersion, header: Data, rest: Int)? {
        guard let version = OriginalFileVersion(file) else { return nil }
        var wanted = 64 << 10
        while true {
            guard let prefix = version.prefix(of: file, count: wanted) else { return nil }
            do {
                if let (header, rest) = try JPEGLocationRemover.locationFreeHeader(in: prefix) { return (version, header, rest) }
                // The whole file is read, and it has no scan: clean it whole.
                if prefix.count < wanted { return (version, try JPEGLocationRemover.removingLocation(from: prefix), prefix.count) }
            } catch {
                return nil
            }
            guard wanted < maximumJPEGHeaderBytes else { return nil }
            wanted = min(wanted * 4, maximumJPEGHeaderBytes)
        }
    }

    private static func downloadHeaders(contentType: String) -> HTTPFields {
        [.contentType: contentType, .cacheControl: "private, no-store"]
    }
}
