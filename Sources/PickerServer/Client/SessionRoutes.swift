import AssetsKit
import Foundation
import Hummingbird
import PickerSessions

/// The client programs' picker sessions, as the Google Photos Picker API's `sessions` resource:
/// `POST /v1/sessions`, `GET` and `DELETE /v1/sessions/{id}`. The picked items are
/// ``MediaItemRoutes``'.
///
/// An unknown, deleted or expired session gets the very same 404 as one that never existed.
/// The demo client's mirror (``DemoClientRoutes``) answers with these same functions.
struct SessionRoutes: Sendable {
    let state: ServerState

    func add(to router: Router<BasicRequestContext>) {
        // Router-wide, so that it also sees the requests no route takes (the router's 404).
        router.middlewares.add(ClientMethods.Middleware())
        let sessions = router.group("v1/sessions")
        sessions.post { request, _ in try await create(request, for: .client) }
        sessions.get(":id") { _, context in try await show(try context.parameters.require("id")) }
        sessions.delete(":id") { _, context in try await delete(try context.parameters.require("id")) }
    }

    /// The longest preselected identifier taken, in characters (Unicode scalars, as JSON Schema's
    /// `maxLength` counts): an assets-library URL has about 90.
    static let maximumIdentifierLength = 256

    /// Who asks for a new session.
    enum Creator {
        /// A client program, with the client key.
        case client
        /// The person, through the demo client page: the session is one of their own (`SessionPlace.own`).
        case person
    }

    /// `POST /v1/sessions`: a new session with the body's settings, answered as Google's API
    /// answers `sessions.create`. A session the person creates is marked as their own, in the
    /// places of the session store kept for them (as many as ``PickerServerLimits/ownSessions``):
    /// client programs share the rest, so they can never leave the person's page without room.
    func create(_ request: Request, for creator: Creator) async throws -> Response {
        // No body at all is `{}`, as Google's API takes it.
        let body = try await JSONResponse.decode(CreateSessionRequest.self, from: request, limit: 4 << 20, empty: CreateSessionRequest())
        let settings = PickerSessionSettings(maxItems: body.maxItemCount ?? PickerSessionSettings.maximumItemsRange.upperBound,
                                             mediaFilter: body.mediaFilter ?? .all, order: body.order ?? .pick)
        guard PickerSessionSettings.maximumItemsRange.contains(settings.maxItems) else {
            throw APIError.badParameter("'pickingConfig.maxItemCount' must be from \(PickerSessionSettings.maximumItemsRange.lowerBound) to \(PickerSessionSettings.maximumItemsRange.upperBound); got \(settings.maxItems).")
        }
        let preselected = body.preselected ?? []
        // A session keeps them until the person comes: bounded, as what it keeps must be.
        guard preselected.count <= PickerSessionSettings.maximumItemsRange.upperBound else {
            throw APIError.badParameter("'preselected' takes at most \(PickerSessionSettings.maximumItemsRange.upperBound) identifiers (the most a session can pick); got \(preselected.count).")
        }
        guard preselected.allSatisfy({ $0.unicodeScalars.count <= Self.maximumIdentifierLength }) else {
            throw APIError.badParameter("A 'preselected' identifier is at most \(Self.maximumIdentifierLength) characters (a local identifier, a UUID or an assets-library URL).")
        }
        // Kept as given: resolved when the person opens the picker, so that nothing the client
        // can observe (not even how long this takes) depends on what the identifiers name.
        let session: PickerSession
        do {
            // The person's own sessions have places of their own, which client programs never take.
            session = try await state.sessions.create(settings: settings, preselected: preselected,
                                                      place: creator == .client ? .shared : .own)
        } catch let error as PickerSessionError {
            throw APIError(.tooManyRequests, code: "tooManySessions", error.description)
        }
        state.logger.info("picker session created", metadata: ["session": "\(session.id)", "maxItems": "\(settings.maxItems)",
                                                                "by": "\(creator == .client ? "client" : "person")"])
        var response = try JSONResponse.make(try await resource(session))
        response.headers[.location] = "/v1/sessions/\(session.id)"
        return response
    }

    /// `GET /v1/sessions/{id}`: the session; 404 when it is unknown, deleted or expired.
    func show(_ id: String) async throws -> Response {
        guard let session = try await state.sessions.session(id) else { throw APIError.notFound }
        return try JSONResponse.make(try await resource(session))
    }

    /// `DELETE /v1/sessions/{id}`: ends the session; its base URLs stop working at once. Answers
    /// `{}`, as Google's API does.
    func delete(_ id: String) async throws -> Response {
        guard try await state.sessions.delete(id) else { throw APIError.notFound }
        state.grants.forget(id)
        return try JSONResponse.make(EmptyObject())
    }

    /// The session as its client sees it; `pickedCount` leaves out picks deleted or hidden since.
    func resource(_ session: PickerSession) async throws -> SessionResource {
        SessionResource(session, pickerURI: state.pickerURI(for: session), pollInterval: state.configuration.pollInterval,
                        now: try await state.sessions.currentTime(),
                        pickedCount: session.mediaItemsSet ? try await state.stillPickable(session.pickedItems.map(\.uuid)).count : nil)
    }
}

/// `{}`: the body of an answer that has nothing to say.
private struct EmptyObject: Encodable {}
