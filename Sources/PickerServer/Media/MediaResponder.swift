import AssetsKit
import Foundation
import HTTPTypes
import Hummingbird
import ImagePipeline

/// Every image the server makes for a session, and its originals: the one path from an HTTP
/// request to the library's image pipeline, whichever API asked — the picker page's image
/// route and its fast path, its thumbnail batches and prefetch, the client program's baseUrls.
///
/// Each arrives as one typed ``AssetsKit/ImageRequest`` (its tier in it) and is named by one
/// `RenditionKey`, from which the memo's key and the entity tag derive. Whatever has to be
/// made takes a place in its session's one budget (``SessionRenderBudget``) and is given up
/// when the connection that asked for it closes, when a more urgent image of the session takes
/// its place, or — prefetch, which no connection waits for — when the session's last page goes
/// (``PickerPages``). Renders of one tier take turns between sessions
/// (``AssetsKit/ImageRequest/requester``).
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
    /// What each session may have asked for and not received.
    let budget: SessionRenderBudget
    /// The pages open on each session, and each session's prefetch.
    let pages: PickerPages

    init(library: any PhotoLibrary, renditions: RenditionMemo = RenditionMemo(),
         budget: SessionRenderBudget = SessionRenderBudget(limit: PickerServerLimits().rendersPerSession)) {
        self.library = library
        self.renditions = renditions
        self.budget = budget
        pages = PickerPages()
    }

    /// The asset rendered as `request` asks; 304 when the caller's copy (`ifNoneMatch`) is current.
    ///
    /// Once the final rendition has been answered, it answers every delivery mode (it is the
    /// best answer there is), cacheable and tagged; a `fast` answer made for the occasion may be
    /// a stand-in, and is neither tagged nor kept. A render takes a place in `session`'s budget
    /// (429 beyond it) and is given up as soon as the client closes its connection.
    ///
    /// A request without network access whose original is kept elsewhere and not here waits for
    /// nothing: an image no larger than the asset's preview is made from it, final and kept like
    /// any other; a larger one gets the quickest image at hand (the preview, a smaller rendition),
    /// degraded and not kept, or, with none, 409 `networkAccessRequired`.
    func image(of asset: Asset, request: ImageRequest, ifNoneMatch: String?, session: String) async throws -> Response {
        if let answer = answerWithoutRendering(of: asset, request: request, ifNoneMatch: ifNoneMatch) {
            return answer.response
        }
        let result: ImageResult
        do {
            result = try await withinBudget(session: session, tier: request.priority, departure: ClientDeparture.current) {
                [library] in
                do {
                    return try await library.finalImage(for: asset, request: request.asked(by: session))
                } catch LibraryError.networkAccessRequired(let file) where !request.isNetworkAccessAllowed {
                    let deadline = ContinuousClock.now + ThumbnailBatch.quickImageTime
                    guard let atHand = await library.quickImages(for: [asset], request: request, startingBefore: deadline)[asset.id.uuid] else {
                        throw LibraryError.networkAccessRequired(file: file)
                    }
                    return atHand
                }
            }
        } catch let error as APIError {
            throw error
        } catch LibraryError.unreadableFile(_, let reason) where request.isNetworkAccessAllowed && library.remoteOriginals != nil {
            // The original kept elsewhere could not be fetched.
            throw Self.fetchFailed(asset, reason: reason)
        } catch {
            throw Self.apiError(error, asset: asset)
        }
        guard request.deliveryMode != .fastFormat, !result.isDegraded else {
            // The quickest answer may be a degraded one today and the final one tomorrow.
            return Self.answer(result, tag: nil, cacheControl: cacheControl).response
        }
        return remember(result, of: asset, request: request).answer.response
    }

    /// The answer to a rendition request that needs neither the library nor the pipeline: 304
    /// when the caller's copy is current, else the remembered final rendition; `nil` when the
    /// image has to be made. Cheap and synchronous, so that an event loop may call it.
    func answerWithoutRendering(of asset: Asset, request: ImageRequest, ifNoneMatch: String?) -> PreparedAnswer? {
        let key = RenditionKey(asset, request)
        if let known = renditions.rendition(for: key) {
            if let ifNoneMatch, Self.matches(ifNoneMatch, known.tag) { return known.notModified }
            return known.answer
        }
        // A fast request is only sure to be answered by what the caller holds once the final one exists.
        guard request.deliveryMode != .fastFormat, let ifNoneMatch else { return nil }
        let tag = key.entityTag
        return Self.matches(ifNoneMatch, tag) ? .notModified(tag: tag, cacheControl: cacheControl) : nil
    }

    /// The thumbnails of `assets` at hand for a batch (``ThumbnailBatch``), by UUID: the final
    /// renditions remembered, and for the others (``ThumbnailBatch/maximumQuickImages`` at most)
    /// the quickest image the library has, made in one place of `session`'s budget and started
    /// within ``ThumbnailBatch/quickImageTime``. Nothing is rendered from an original; with the
    /// budget full, only the remembered ones come (the page asks for the rest one by one).
    func thumbnails(of assets: [Asset], request: ImageRequest, session: String) async throws -> [UUID: ThumbnailBatch.Thumbnail] {
        var thumbnails: [UUID: ThumbnailBatch.Thumbnail] = [:], wanting: [Asset] = []
        for asset in assets {
            if let answer = answerWithoutRendering(of: asset, request: request, ifNoneMatch: nil), let body = answer.body {
                thumbnails[asset.id.uuid] = ThumbnailBatch.Thumbnail(type: answer.head.headerFields[.contentType] ?? request.format.mimeType,
                                                                     bytes: body, isFinal: true)
            } else if wanting.count < ThumbnailBatch.maximumQuickImages {
                wanting.append(asset)
            }
        }
        guard !wanting.isEmpty else { return thumbnails }
        let deadline = ContinuousClock.now + ThumbnailBatch.quickImageTime
        let quick: [UUID: ImageResult]
        do {
            quick = try await withinBudget(session: session, tier: request.priority, departure: ClientDeparture.current) {
                [library, wanting] in await library.quickImages(for: wanting, request: request, startingBefore: deadline)
            }
        } catch let refusal as APIError where refusal.code == SessionRenderBudget.refusalCode {
            return thumbnails
        }
        for (uuid, image) in quick {
            thumbnails[uuid] = ThumbnailBatch.Thumbnail(type: image.format.mimeType, bytes: ByteBuffer(data: image.data), isFinal: false)
        }
        return thumbnails
    }

    /// Starts rendering `assets` for `request` (a prefetch tier) as `session`'s prefetch,
    /// superseding the one it had: as many at a time as there are cores, each in a place of the
    /// session's budget, into the memo. It yields to the session's visible images: when the
    /// budget is full it stops, as it does when the session's last page goes.
    func prefetch(_ assets: [Asset], request: ImageRequest, session: String) {
        pages.startPrefetch(session: session) { [self] in
            let width = max(1, ProcessInfo.processInfo.activeProcessorCount)
            await withTaskGroup(of: Bool.self) { group in
                var next = 0, goesOn = true
                func startNext() {
                    guard goesOn, next < assets.count, !Task.isCancelled else { return }
                    let asset = assets[next]
                    next += 1
                    group.addTask { await prefetchOne(asset, request: request, session: session) }
                }
                for _ in 0..<width { startNext() }
                while let made = await group.next() {
                    goesOn = goesOn && made
                    startNext()
                }
            }
        }
    }

    /// A page of `session` opened (its event stream); end the visit when it goes.
    func pageOpened(session: String) -> PageVisit {
        pages.pageOpened(session: session)
    }

    /// Renders one prefetched asset into the memo; `false` when the prefetch should stop (the
    /// session's budget is full of more urgent images, or the prefetch was stopped).
    private func prefetchOne(_ asset: Asset, request: ImageRequest, session: String) async -> Bool {
        guard renditions.rendition(for: RenditionKey(asset, request)) == nil else { return true }
        do {
            let result = try await withinBudget(session: session, tier: request.priority, departure: nil) {
                [library] in try await library.finalImage(for: asset, request: request.asked(by: session))
            }
            remember(result, of: asset, request: request)
            return true
        } catch is APIError, is CancellationError {
            return false
        } catch {
            return !Task.isCancelled // one unreadable file does not stop the rest
        }
    }

    /// `work`'s value, made in a place of `session`'s budget at `tier`, waited for only while
    /// the client (`departure`) is there and the budget keeps the place.
    func withinBudget<Value: Sendable>(session: String, tier: RenderPriority, departure: ClientDeparture?,
                                       _ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let stop = RenderStop()
        let ticket = try budget.admit(session: session, tier: tier, stop: stop)
        defer { budget.release(ticket, session: session) }
        return try await Self.whileClientWaits(departure, stop: stop, work)
    }

    /// `work`'s value, waited for only while the client (`departure`) is there: when it leaves,
    /// `work` is cancelled (a transfer of an original stops unless another caller waits for it)
    /// and the 499 of ``RenderStop/Reason/clientLeft`` is thrown.
    static func whileClientWaits<Value: Sendable>(_ departure: ClientDeparture?, stop: RenderStop = RenderStop(),
                                                  _ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let watch = departure?.watch { stop.fire(.clientLeft) }
        defer { if let watch { departure?.unwatch(watch) } }
        return try await stop.racing(work)
    }

    /// Keeps the final rendition `result` of `asset` for `request` in the memo, tagged, and
    /// gives it back as it is answered.
    @discardableResult
    private func remember(_ result: ImageResult, of asset: Asset, request: ImageRequest) -> RenditionMemo.Rendition {
        let key = RenditionKey(asset, request)
        let tag = key.entityTag
        let rendition = RenditionMemo.Rendition(answer: Self.answer(result, tag: tag, cacheControl: cacheControl), tag: tag,
                                                cacheControl: cacheControl)
        renditions.remember(rendition, for: key)
        return rendition
    }

    /// A rendition's answer: tagged and cacheable when it is the final one (`tag` given), else `no-store`.
    ///
    /// The final one also says so in `Server-Timing: final`: the one header of an `<img>`'s answer
    /// a page can read (its resource timing), so that the picker page does not fetch again as an
    /// upgrade what a `fast` request was answered with already.
    private static func answer(_ result: ImageResult, tag: String?, cacheControl: String) -> PreparedAnswer {
        let bytes = ByteBuffer(data: result.data)
        var headers: HTTPFields = [.contentType: result.format.mimeType]
        headers[.contentLength] = String(bytes.readableBytes)
        if let tag {
            headers[.eTag] = tag
            headers[.cacheControl] = cacheControl
            headers[serverTiming] = "final"
        } else {
            headers[.cacheControl] = "no-store"
        }
        headers[imageSize] = "\(result.pixelSize.width)x\(result.pixelSize.height)"
        headers[imageDegraded] = result.isDegraded ? "1" : "0"
        return PreparedAnswer(head: HTTPResponse(status: .ok, headerFields: headers), body: bytes)
    }

    /// The `code` of the 409 for an original kept elsewhere, asked for without network access.
    static let networkAccessRequiredCode = "networkAccessRequired"

    private static let imageSize = HTTPField.Name("X-Image-Size")!
    private static let imageDegraded = HTTPField.Name("X-Image-Degraded")!
    private static let serverTiming = HTTPField.Name("Server-Timing")!

    /// Whether an `If-None-Match` header names `tag` (or is `*`).
    static func matches(_ header: String, _ tag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            let trimmed = candidate.trimmingCharacters(in: .whitespaces)
            return trimmed == "*" || trimmed == tag || trimmed == "W/" + tag
        }
    }

    /// What a failure of the library means to the caller: an original that is gone, changed
    /// since the library read it or reached through a link out of the library is 404, the
    /// answer of an unknown asset (nothing tells a swapped file from a missing one); an original
    /// kept elsewhere that the request did not allow to fetch is 409 `networkAccessRequired`; an
    /// image the pipeline cannot read is 422, the message naming the file and the reason.
    static func apiError(_ error: any Error, asset: Asset) -> any Error {
        switch error {
        case LibraryError.assetNotFound, LibraryError.unreadableFile, LibraryError.originalUnavailable:
            return APIError.notFound
        case LibraryError.networkAccessRequired:
            return APIError(.conflict, code: networkAccessRequiredCode, "\(error)")
        case is ImagePipelineError, is LibraryError, is VideoError:
            return APIError(.unprocessableContent, code: "cannotRender", "\(asset.filename) cannot be rendered: \(error)")
        default:
            return error
        }
    }
}
