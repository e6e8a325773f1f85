import AssetsKit
import Foundation
import Hummingbird
import Picker

/// The client programs' API: picker sessions and the items picked in them (`/v1/sessions…`).
///
/// Every identifier a client may not see — not picked, made up, another session's, path-like —
/// gets the very same 404 as one that never existed.
struct SessionRoutes: Sendable {
    let state: ServerState

    /// Items per page of a listing, at most.
    static let maximumPageSize = 100

    func add(to router: Router<BasicRequestContext>) {
        // Router-wide, so that it also sees the requests no route takes (the router's 404).
        router.middlewares.add(ClientMethods.Middleware())
        let sessions = router.group("v1/sessions").add(middleware: ClientKeyMiddleware(clientKey: state.configuration.clientKey))
        sessions.post { request, context in try await create(request, context) }
        sessions.get(":id") { request, context in try await show(request, context) }
        sessions.delete(":id") { request, context in try await delete(request, context) }
        sessions.get(":id/items") { request, context in try await items(request, context) }
        sessions.get(":id/items/:item/image") { request, context in
            let (_, asset) = try await pickedItem(request, context)
            return try await state.media.image(of: asset, query: ImageQuery(request), request: request)
        }
        sessions.get(":id/items/:item/original") { request, context in
            let (_, asset) = try await pickedItem(request, context)
            return try await state.media.original(of: asset, request: request, context: context)
        }
    }

    private func create(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let body = try await JSONResponse.decode(CreateSessionRequest.self, from: request, limit: 4 << 20)
        let settings = PickerSessionSettings(maxItems: body.maxItems ?? PickerSessionSettings.maximumItemsRange.upperBound,
                                             mediaFilter: body.mediaFilter ?? .all, order: body.order ?? .pick)
        guard PickerSessionSettings.maximumItemsRange.contains(settings.maxItems) else {
            throw APIError.badParameter("'maxItems' must be from \(PickerSessionSettings.maximumItemsRange.lowerBound) to \(PickerSessionSettings.maximumItemsRange.upperBound); got \(settings.maxItems).")
        }
        let preselected = body.preselected ?? []
        guard preselected.count <= 10_000 else { throw APIError.badParameter("'preselected' takes at most 10000 identifiers.") }
        let resolved = try await Preselection.resolve(preselected, in: state.library, settings: settings)
        let session: PickerSession
        do {
            session = try state.sessions.create(settings: settings, preselected: resolved)
        } catch {
            throw APIError(.serviceUnavailable, code: "tooManySessions", error.description)
        }
        state.logger.info("picker session created", metadata: ["session": "\(session.id)", "maxItems": "\(settings.maxItems)"])
        var response = try JSONResponse.make(try await resource(session), status: .created)
        response.headers[.location] = "/v1/sessions/\(session.id)"
        return response
    }

    private func show(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        try JSONResponse.make(try await resource(try await session(context)))
    }

    private func delete(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        guard state.sessions.delete(id) else { throw APIError.notFound }
        return Response(status: .noContent)
    }

    private func items(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let session = try await session(context)
        guard session.mediaItemsSet else {
            throw APIError(.conflict, code: "notFinished",
                           "The person has not finished picking; poll the session until 'mediaItemsSet' is true.")
        }
        let parameters = request.uri.queryParameters
        let start = try parameters.get("pageToken").map { text throws(APIError) in try PageToken(text).offset } ?? 0
        var pageSize = Self.maximumPageSize
        if let text = parameters.get("pageSize") {
            guard let size = Int(text), (1...Self.maximumPageSize).contains(size) else {
                throw APIError.badParameter("'pageSize' must be a whole number from 1 to \(Self.maximumPageSize); got '\(text)'.")
            }
            pageSize = size
        }
        let picked = session.pickedItems
        // Any token of the form this server writes is taken: one past the last item reads an empty last page.
        let first = min(start, picked.count)
        let end = min(picked.count, first + pageSize)
        // Picks deleted or hidden since are left out (the page is shorter; the tokens stay).
        let page = ItemPage(items: try await state.stillPickable(Array(picked[first..<end])).map(ItemResource.init),
                            nextPageToken: end < picked.count ? PageToken(offset: end).text : nil)
        return try JSONResponse.make(page)
    }

    /// The session the path names; 404 when it is unknown, deleted or expired.
    private func session(_ context: BasicRequestContext) async throws -> PickerSession {
        guard let session = state.sessions.session(try context.parameters.require("id")) else { throw APIError.notFound }
        return session
    }

    /// The picked item the path names, in the session the path names; 404 for anything else.
    private func pickedItem(_ request: Request, _ context: BasicRequestContext) async throws -> (PickerSession, Asset) {
        let session = try await session(context)
        guard let uuid = ItemResource.uuid(fromPathComponent: try context.parameters.require("item")),
              let picked = session.pickedItem(uuid), let asset = try await state.stillPickable([picked]).first else {
            throw APIError.notFound
        }
        return (session, asset)
    }

    /// The session as its client sees it; `pickedCount` leaves out picks deleted or hidden since.
    private func resource(_ session: PickerSession) async throws -> SessionResource {
        SessionResource(session, pickerURI: state.pickerURI(for: session), pollInterval: state.configuration.pollInterval,
                        pickedCount: session.mediaItemsSet ? try await state.stillPickable(session.pickedItems).count : nil)
    }
}

/// One page of a session's picked items.
struct ItemPage: Encodable {
    let items: [ItemResource]
    let nextPageToken: String?
}
