import Foundation
import HTTPTypes
import Hummingbird
import PickerSessions

/// The demo client: a client program run in the person's browser, so that a newcomer sees what
/// a program receives. The page at `/demo/` does what an app does — creates a session, opens
/// its `pickerUri`, polls until `mediaItemsSet`, lists the picks page by page and fetches each
/// through its `baseUrl` — against `/demo/v1/…`, a mirror of the client API (`/v1/…`) that
/// answers with the client API's own code (``SessionRoutes``, ``MediaItemRoutes``), so its
/// answers are the very bytes a program gets.
///
/// The browser never holds the client key: `/demo/…` is the person's area (``AccessGate``: the
/// person's cookie, and an `Origin` of this server for `POST` and `DELETE`), which the key opens
/// nothing of. The mirror reaches only the person's own sessions (made in the session store's
/// own places, `SessionPlace.own`): those it created, at most ``PickerServerLimits/ownSessions``
/// alive at once, and the one the server made at start.
/// Any other session — every session a client program created — answers 404 there, exactly as
/// an unknown one does.
///
/// - `GET /demo/`: the page (`demo.html`; `?session={id}` shows one of the person's sessions).
/// - `POST /demo/v1/sessions`: as `POST /v1/sessions`, the same body; the session is the person's own.
/// - `GET`, `DELETE /demo/v1/sessions/{id}`: as `/v1/sessions/{id}`.
/// - `GET /demo/v1/mediaItems?sessionId=…&pageSize=…&pageToken=…`: as `/v1/mediaItems`.
/// - `GET /demo/v1/media/{session}/{item}/{expiry}=…`: an item's `baseUrl` content, as
///   `/v1/media/…` (the page turns each `baseUrl` it receives into this path).
struct DemoClientRoutes: Sendable {
    let state: ServerState
    let files: StaticFiles
    let sessions: SessionRoutes
    let mediaItems: MediaItemRoutes

    /// The demo client page's path: where a sign-in may go on to, and where the picker goes after
    /// Done in one of the person's own sessions.
    static let pagePath = "/demo/"

    func add(to router: Router<BasicRequestContext>) {
        let demo = router.group("demo")
        demo.get { request, _ in
            var response = try files.response(StaticFiles.demoPage, request: request)
            response.headers[.contentSecurityPolicy] = PickerPageRoutes.contentSecurityPolicy
            response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
            return response
        }
        let api = demo.group("v1")
        api.post("sessions") { request, _ in
            try await sessions.create(request, for: .person)
        }
        api.get("sessions/:id") { _, context in
            try await sessions.show(try await ownSession(context.parameters.require("id")))
        }
        api.delete("sessions/:id") { _, context in
            try await sessions.delete(try await ownSession(context.parameters.require("id")))
        }
        api.get("mediaItems") { request, _ in
            // Without a sessionId the client API's own answer (400) says what is missing.
            if let id = request.uri.queryParameters.get("sessionId"), !id.isEmpty { _ = try await ownSession(id) }
            return try await mediaItems.list(request)
        }
        api.get("media/:session/:item/:last") { request, context in
            _ = try await ownSession(context.parameters.require("session"))
            return try await mediaItems.content(request, context)
        }
    }

    /// `id` when it names one of the person's own sessions; 404, as an unknown session, otherwise.
    private func ownSession(_ id: String) async throws -> String {
        guard try await state.sessions.isOwn(id) else { throw APIError.notFound }
        return id
    }
}
