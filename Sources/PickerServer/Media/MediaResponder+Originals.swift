import AssetsKit
import Foundation
import HTTPTypes
import Hummingbird

extension MediaResponder {
    /// The asset's original file, or the part of it a `Range` header asks for.
    func original(of asset: Asset, request: Request, context: some RequestContext) async throws -> Response {
        let original: OriginalResource
        do {
            original = try await library.originalFile(for: asset)
        } catch {
            throw Self.apiError(error, asset: asset)
        }
        // The open file (the version the library knows, checked at open): its version is the validator.
        guard let version = OriginalFileVersion(original.file) else { throw APIError.notFound }
        let length = version.size
        let tag = version.entityTag(of: asset.id.uuid)
        var headers: HTTPFields = [.contentType: original.contentType, .acceptRanges: "bytes", .eTag: tag,
                                   .cacheControl: cacheControl]
        headers[.contentDisposition] = "inline; filename=\"\(Self.headerSafe(original.filename))\""
        if request.headers[.ifNoneMatch].map({ Self.matches($0, tag) }) == true {
            return Response(status: .notModified, headers: headers)
        }
        // A Range with an If-Range that no longer matches gets the whole, current file.
        let rangeHeader = request.headers[.ifRange].map { $0 == tag } ?? true ? request.headers[.range] : nil
        switch ByteRange(header: rangeHeader, length: length) {
        case .whole:
            headers[.contentLength] = String(length)
            guard length > 0 else { return Response(status: .ok, headers: headers) }
            return Response(status: .ok, headers: headers, body: version.body(of: original.file, ranges: [0...(length - 1)]))
        case .part(let range):
            headers[.contentLength] = String(range.count)
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(length)"
            return Response(status: .partialContent, headers: headers,
                            body: version.body(of: original.file, ranges: [range.lowerBound...range.upperBound]))
        case .unsatisfiable:
            var error = APIError(.rangeNotSatisfiable, code: "rangeNotSatisfiable",
                                 "The range asked for lies outside the file's \(length) bytes.")
            error.headers[.contentRange] = "bytes */\(length)"
            throw error
        }
    }

    /// A file name that cannot break out of a quoted header value.
    private static func headerSafe(_ name: String) -> String {
        String(name.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0 != "\"" && $0 != "\\" ? Character($0) : "_" })
    }
}
