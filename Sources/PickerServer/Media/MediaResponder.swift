import AssetsKit
import Foundation
import HTTPTypes
import Hummingbird
import ImagePipeline

/// Answers with an asset's renditions and originals: the one path from an HTTP request to the
/// library's image pipeline, whichever API asked.
///
/// No request names a file: the asset comes from the caller's session or the library, and the
/// library says where its original is.
struct MediaResponder: Sendable {
    let library: any PhotoLibrary
    /// `Cache-Control` of final renditions (the same URL always means the same image of one
    /// version of the original; the ETag carries the version).
    var cacheControl = "private, max-age=86400"
    /// Final renditions answered lately, sent again without asking the library.
    let renditions: RenditionMemo
    /// What each session may have rendered at once.
    let budget: SessionRenderBudget

    init(library: any PhotoLibrary, renditions: RenditionMemo = RenditionMemo(),
         budget: SessionRenderBudget = SessionRenderBudget(limit: PickerServerLimits().rendersPerSession)) {
        self.library = library
        self.renditions = renditions
        self.budget = budget
    }

    /// The asset rendered as `query` asks; 304 when the caller's copy (`If-None-Match`) is current.
    ///
    /// Once the final rendition has been answered, it answers every delivery mode (it is the
    /// best answer there is), cacheable and tagged; a `fast` answer rendered for the occasion may
    /// be a stand-in, and is neither tagged nor stored.
    ///
    /// A render takes a place in `session`'s budget (``SessionRenderBudget``: 429 beyond it)
    /// and the render queue's tier `tier` (a `fast` request is always a visible cell's first
    /// image); it is given up as soon as the client closes its connection.
    func image(of asset: Asset, query: ImageQuery, request: Request, session: String, tier: RenderPriority) async throws -> Response {
        if let answer = answerWithoutRendering(of: asset, query: query, ifNoneMatch: request.headers[.ifNoneMatch]) {
            return answer.response
        }
        let result = try await render(asset, query, session: session, tier: query.delivery == .fastFormat ? .visibleFirst : tier)
        let bytes = ByteBuffer(data: result.data), pixelSize = "\(result.pixelSize.width)x\(result.pixelSize.height)"
        guard query.delivery != .fastFormat else {
            // The quickest answer may be a degraded one today and the final one tomorrow.
            return answer(bytes, contentType: result.format.mimeType, pixelSize: pixelSize, tag: nil, degraded: result.isDegraded).response
        }
        let tag = entityTag(of: asset, query: query)
        let final = answer(bytes, contentType: result.format.mimeType, pixelSize: pixelSize, tag: tag, degraded: result.isDegraded)
        renditions.remember(RenditionMemo.Rendition(answer: final, tag: tag, cacheControl: cacheControl), for: RenditionKey(asset, query))
        return final.response
    }

    /// The answer to a rendition request that needs neither the library nor the pipeline: 304
    /// when the caller's copy is current, else the remembered final rendition; `nil` when the
    /// image has to be rendered. Cheap and synchronous, so that an event loop may call it.
    func answerWithoutRendering(of asset: Asset, query: ImageQuery, ifNoneMatch: String?) -> PreparedAnswer? {
        if let known = renditions.rendition(for: RenditionKey(asset, query)) {
            if let ifNoneMatch, Self.matches(ifNoneMatch, known.tag) { return known.notModified }
            return known.answer
        }
        // A fast request is only sure to be answered by what the caller holds once the final one exists.
        guard query.delivery != .fastFormat, let ifNoneMatch else { return nil }
        let tag = entityTag(of: asset, query: query)
        return Self.matches(ifNoneMatch, tag) ? .notModified(tag: tag, cacheControl: cacheControl) : nil
    }

    /// A rendition's answer: tagged and cacheable when it is the final one (`tag` given), else `no-store`.
    ///
    /// The final one also says so in `Server-Timing: final`: the one header of an `<img>`'s answer
    /// a page can read (its resource timing), so that the picker page does not fetch again as an
    /// upgrade what a `fast` request was answered with already.
    private func answer(_ bytes: ByteBuffer, contentType: String, pixelSize: String, tag: String?, degraded: Bool) -> PreparedAnswer {
        var headers: HTTPFields = [.contentType: contentType]
        headers[.contentLength] = String(bytes.readableBytes)
        if let tag {
            headers[.eTag] = tag
            headers[.cacheControl] = cacheControl
            headers[Self.serverTiming] = "final"
        } else {
            headers[.cacheControl] = "no-store"
        }
        headers[Self.imageSize] = pixelSize
        headers[Self.imageDegraded] = degraded ? "1" : "0"
        return PreparedAnswer(head: HTTPResponse(status: .ok, headerFields: headers), body: bytes)
    }

    /// The final image of `asset` for `query`, rendered within `session`'s budget at `tier`;
    /// waited for only while the client is there and the budget keeps its place.
    private func render(_ asset: Asset, _ query: ImageQuery, session: String, tier: RenderPriority) async throws -> ImageResult {
        let stop = RenderStop()
        let ticket = try budget.admit(session: session, tier: tier, stop: stop)
        defer { budget.release(ticket, session: session) }
        let departure = ClientDeparture.current
        let watch = departure?.watch { stop.fire(.clientLeft) }
        defer { if let watch { departure?.unwatch(watch) } }
        let library = library, request = query.request
        do {
            return try await stop.racing {
                try await RenderPriority.$requested.withValue(tier) {
                    try await library.finalImage(for: asset, request: request)
                }
            }
        } catch let error as APIError {
            throw error
        } catch {
            throw Self.apiError(error, asset: asset)
        }
    }

    private static let imageSize = HTTPField.Name("X-Image-Size")!
    private static let imageDegraded = HTTPField.Name("X-Image-Degraded")!
    private static let serverTiming = HTTPField.Name("Server-Timing")!

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

    /// A strong ETag of a rendition: the asset's version and everything the query asks for.
    private func entityTag(of asset: Asset, query: ImageQuery) -> String {
        let text = "\(Self.versionHash(of: asset))|\(query.width)x\(query.height)|\(query.mode)|\(query.format)|\(query.quality)"
        return "\"\(String(FNV1a.hash(Array(text.utf8)), radix: 16))\""
    }

    /// A hash of the asset's identity and its original's version (size and modification time).
    private static func versionHash(of asset: Asset) -> UInt64 {
        let text = "\(asset.id.uuid)|\(asset.byteSize)|\(asset.modificationDate.timeIntervalSince1970)"
        return FNV1a.hash(Array(text.utf8))
    }

    /// Whether an `If-None-Match` header names `tag` (or is `*`).
    private static func matches(_ header: String, _ tag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            let trimmed = candidate.trimmingCharacters(in: .whitespaces)
            return trimmed == "*" || trimmed == tag || trimmed == "W/" + tag
        }
    }

    /// A file name that cannot break out of a quoted header value.
    private static func headerSafe(_ name: String) -> String {
        String(name.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0 != "\"" && $0 != "\\" ? Character($0) : "_" })
    }

    /// What a failure of the library means to the caller: an original that is gone, changed
    /// since the library read it or reached through a link out of the library is 404, the
    /// answer of an unknown asset (nothing tells a swapped file from a missing one); an image
    /// the pipeline cannot read is 422, the message naming the file and the reason.
    static func apiError(_ error: any Error, asset: Asset) -> any Error {
        switch error {
        case LibraryError.assetNotFound, LibraryError.unreadableFile, LibraryError.originalUnavailable:
            return APIError.notFound
        case is ImagePipelineError, is LibraryError, is VideoError:
            return APIError(.unprocessableContent, code: "cannotRender", "\(asset.filename) cannot be rendered: \(error)")
        default:
            return error
        }
    }
}
