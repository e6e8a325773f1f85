import AssetsKit
import Foundation
import Hummingbird
import ImagePipeline
import PickerSessions

/// The picked items of a session, as the Google Photos Picker API lists and serves them:
/// `GET /v1/mediaItems?sessionId=…` and each item's `baseUrl` (`/v1/media/…`) with what a client
/// appends to it.
///
/// Every identifier a client may not see — not picked, made up, another session's, path-like —
/// gets the very same 404 as one that never existed.
struct MediaItemRoutes: Sendable {
    let state: ServerState

    /// Items per page when the client names no `pageSize`, and at most (larger sizes are cut to it), as Google's API does.
    static let defaultPageSize = 25
    static let maximumPageSize = 100

    func add(to router: Router<BasicRequestContext>) {
        router.get("v1/mediaItems") { request, _ in try await list(request) }
        router.get("v1/media/:session/:item/:last") { request, context in
            try await content(request, context)
        }
    }

    /// `GET /v1/mediaItems`: a page of the picks of the session named by `sessionId`.
    func list(_ request: Request) async throws -> Response {
        let parameters = request.uri.queryParameters
        guard let id = parameters.get("sessionId"), !id.isEmpty else { throw APIError.badParameter("Give the session as 'sessionId'.") }
        let start = try parameters.get("pageToken").flatMap { $0.isEmpty ? nil : $0 }.map { text throws(APIError) in try PageToken(text).offset } ?? 0
        var pageSize = Self.defaultPageSize
        if let text = parameters.get("pageSize"), !text.isEmpty {
            guard let size = DecimalText.wholeNumber(text), size <= Int32.max else {
                throw APIError.badParameter("'pageSize' must be a whole number from 0 (the default, \(Self.defaultPageSize)) up; got '\(text.echoed)'.")
            }
            pageSize = size == 0 ? Self.defaultPageSize : min(size, Self.maximumPageSize)
        }
        // The arguments are checked first, then the session, as Google's API does.
        guard let session = try await state.sessions.session(id) else { throw APIError.notFound }
        guard session.mediaItemsSet else {
            throw APIError.failedPrecondition("The person has not finished picking; poll the session until 'mediaItemsSet' is true.")
        }
        let picked = session.pickedItems
        // Any token of the form this server writes is taken: one past the last item reads an empty last page.
        let first = min(start, picked.count)
        let end = min(picked.count, first + pageSize)
        let expiry = BaseURL.expiry(listedAt: try await state.sessions.currentTime())
        // Picks deleted or hidden since are left out (the page is shorter; the tokens stay).
        let assets = try await state.stillPickable(picked[first..<end].map(\.uuid))
        let details = await CaptureDetails.read(assets, library: state.library)
        // Kept with the session, so that every server honours these base URLs.
        try await state.sessions.recordBaseURLExpiry(expiry, session: session.id)
        let items = zip(assets, details).map { asset, details in
            PickedMediaItemResource(asset, baseURL: state.baseURL + BaseURL.path(sessionID: session.id, itemID: asset.id.uuid.uuidString, expiry: expiry),
                                    details: details)
        }
        return try JSONResponse.make(MediaItemPage(mediaItems: items, nextPageToken: end < picked.count ? PageToken(offset: end).text : nil))
    }

    /// A baseUrl's content: the path's `session`, `item` and `last` (the expiry with what the client appended).
    func content(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        guard let url = BaseURL(sessionID: try context.parameters.require("session"), itemID: try context.parameters.require("item"),
                                lastSegment: try context.parameters.require("last")),
              try await state.sessions.honoursBaseURLExpiry(url.expiry, session: url.sessionID),
              let session = try await state.sessions.session(url.sessionID),
              let uuid = UUID(canonical: url.itemID),
              let picked = session.pickedItem(uuid), let asset = try await state.stillPickable([picked.uuid]).first else {
            throw APIError.notFound
        }
        do {
            switch try BaseURLParameters(url.parameters) {
            case .image(let rendition):
                return try await state.media.image(of: asset, request: rendition, ifNoneMatch: request.headers[.ifNoneMatch],
                                                   session: session.id)
            case .download:
                guard asset.mediaType != .video else { throw APIError.badParameter("'=d' is a photo's bytes; a video's are at '=dv'.") }
                return try await state.media.originalWithoutLocation(of: asset)
            case .video:
                guard asset.mediaType == .video else { throw APIError.badParameter("'=dv' is a video's bytes; a photo's are at '=d'.") }
                return try await state.media.original(of: asset, request: request, context: context)
            }
        } catch let error as APIError where error.code == MediaResponder.fetchFailedCode {
            throw clientFacing(error, asset: asset)
        }
    }

    /// A failed fetch as the client program hears it: one fixed line. Why it failed names the
    /// place the library is kept (the endpoint, the bucket, the folder, S3's own text), which is
    /// the person's business, not the client's: it goes to the server's log.
    private func clientFacing(_ error: APIError, asset: Asset) -> APIError {
        state.logger.warning("a client's request: \(error.message)")
        return MediaResponder.fetchFailed(asset, reason: nil)
    }
}
