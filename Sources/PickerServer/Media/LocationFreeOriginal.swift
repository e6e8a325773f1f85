import AssetsKit
import Foundation
import Hummingbird
import ImageMetadata
import NIOPosix

extension MediaResponder {
    /// A photo's original bytes without where it was taken (a base URL's `=d`), as Google's
    /// Picker API hands them over: the GPS values of a JPEG's EXIF are zeroed and its XMP
    /// dropped, in memory; the file on disk is never changed. A photo whose location cannot be
    /// removed that way (another format, or a damaged header) is answered as a full-size JPEG
    /// rendition, which carries no metadata at all.
    func originalWithoutLocation(of asset: Asset) async throws -> Response {
        let original: OriginalResource
        do {
            original = try await library.originalFile(for: asset)
        } catch {
            throw Self.apiError(error, asset: asset)
        }
        if original.contentType == "image/jpeg" {
            // Read on NIO's thread pool: a blocking read must not hold a cooperative thread.
            let url = original.fileURL
            let bytes = try await NIOThreadPool.singleton.runIfActive { try Data(contentsOf: url) }
            if let cleaned = try? JPEGLocationRemover.removingLocation(from: bytes) {
                return Self.download(ByteBuffer(data: cleaned), contentType: "image/jpeg", filename: original.filename)
            }
        }
        let result: ImageResult
        do {
            result = try await library.finalImage(for: asset, request: .fullResolution(format: .jpeg, quality: 95))
        } catch {
            throw Self.apiError(error, asset: asset)
        }
        return Self.download(ByteBuffer(data: result.data), contentType: result.format.mimeType, filename: original.filename)
    }

    private static func download(_ bytes: ByteBuffer, contentType: String, filename: String) -> Response {
        var headers: HTTPFields = [.contentType: contentType, .cacheControl: "private, no-store"]
        headers[.contentLength] = String(bytes.readableBytes)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: bytes))
    }
}
