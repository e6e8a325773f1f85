import AssetsKit
import Foundation
import HTTPTypes
import Hummingbird

extension MediaResponder {
    /// The asset's original file, or the part of it a `Range` header asks for.
    ///
    /// An original kept elsewhere and not here (an original asked for is an explicit ask: network
    /// access allowed) is passed on as it comes from the bucket when the whole is asked for
    /// (``streamed(_:)``); a `Range` is answered from the local copy once the whole is here.
    func original(of asset: Asset, request: Request, context: some RequestContext) async throws -> Response {
        if request.headers[.range] == nil, let arriving = try await arrivingOriginal(of: asset) {
            return streamed(arriving)
        }
        let original = try await localOriginal(of: asset)
        // The open file (the version the library knows, checked at open): its version is the validator.
        guard let version = OriginalFileVersion(original.file) else { throw APIError.notFound }
        let length = version.size
        let tag = version.entityTag(of: asset.id.uuid)
        var headers = originalHeaders(contentType: original.contentType, filename: original.filename)
        headers[.eTag] = tag
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

    /// The original of `asset`, open, fetched first when it is kept elsewhere and not here (with
    /// `progress`), waited for only while the client of the current request is there: when it
    /// leaves, the wait is cancelled, and with it the transfer unless another caller waits for it.
    /// Two callers asking for one original at once share one transfer (``AssetsKit/OriginalFetching``).
    /// - Throws: ``APIError``: 404 for an original gone or changed, 502 `fetchFailed` when it
    ///   could not be fetched from where it is kept (the reason in the message), 499 when the
    ///   client left.
    func localOriginal(of asset: Asset, departure: ClientDeparture? = ClientDeparture.current,
                       progress: (@Sendable (TransferProgress) -> Void)? = nil) async throws -> OriginalResource {
        do {
            return try await Self.whileClientWaits(departure) { [library] in
                try await library.originalFile(for: asset, request: OriginalRequest(isNetworkAccessAllowed: true, progress: progress))
            }
        } catch {
            throw originalError(error, asset: asset)
        }
    }

    /// The code of ``fetchFailed(_:reason:)``'s error.
    static let fetchFailedCode = "fetchFailed"

    /// 502 `fetchFailed`: the original of `asset` could not be brought from where it is kept;
    /// asking again may work. With `reason` (the person's routes: where it is kept and why, an
    /// endpoint never with its `user:password`), or without (the client program's: one fixed line).
    static func fetchFailed(_ asset: Asset, reason: String?) -> APIError {
        let message = if let reason {
            "\(asset.filename) could not be fetched from where it is kept: \(reason)"
        } else {
            "\(asset.filename) could not be fetched from where it is kept; try again later."
        }
        var error = APIError(.badGateway, code: fetchFailedCode, message)
        error.googleStatus = "UNAVAILABLE"
        return error
    }

    /// The headers of an original's bytes, whole or in part, from the local file or as they come.
    func originalHeaders(contentType: String, filename: String) -> HTTPFields {
        [.contentType: contentType, .acceptRanges: "bytes", .cacheControl: cacheControl,
         .contentDisposition: "inline; filename=\"\(Self.headerSafe(filename))\""]
    }

    /// A file name that cannot break out of a quoted header value.
    static func headerSafe(_ name: String) -> String {
        String(name.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0 != "\"" && $0 != "\\" ? Character($0) : "_" })
    }
}
