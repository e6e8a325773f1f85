import Foundation
import HTTPTypes
import Hummingbird
import PickerSessions

/// What a program receives, shown to the person: after Done in the server's own session (the one
/// `serve` opens through its first sign-in link, ``OwnSession``), the page at `pickerUri` +
/// `received/` lists the picks as the client API answers them, with each baseUrl's thumbnail
/// and its `=d` download. It is the README's walk-through, run by the browser.
///
/// The browser never holds the client key. It reaches the client API's answers for this one
/// session only, through paths under the session's own picker URI, as the signed-in person (the
/// picker area's principal, ``AccessGate``): `received/v1/session`,
/// `received/v1/mediaItems?sessionId=…&pageToken=…` and `received/v1/media/{item}/{expiry}=…`
/// answer exactly what `GET /v1/sessions/{id}`, `GET /v1/mediaItems` and the item's baseUrl
/// answer the client. Any other session (every session a client program created), a wrong
/// token or a deleted session answers 404, as an unknown one does.
struct ClientViewRoutes: Sendable {
    let state: ServerState
    let files: StaticFiles
    let sessions: SessionRoutes
    let mediaItems: MediaItemRoutes

    func add(to router: Router<BasicRequestContext>) {
        let received = router.group("picker/:session/:token/received")
        received.get { request, context in
            _ = try session(context)
            var response = try files.response(StaticFiles.receivedPage, request: request)
            response.headers[.contentSecurityPolicy] = PickerPageRoutes.contentSecurityPolicy
            response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
            return response
        }
        received.get("v1/session") { _, context in
            try JSONResponse.make(try await sessions.resource(try session(context)))
        }
        received.get("v1/mediaItems") { request, context in
            let own = try session(context)
            guard request.uri.queryParameters.get("sessionId") == own.id else { throw APIError.notFound }
            return noStore(try await mediaItems.list(request))
        }
        // The baseUrl's `session` is the picker path's own (`:session` above).
        received.get("v1/media/:item/:last") { request, context in
            _ = try session(context)
            return try await mediaItems.content(request, context)
        }
    }

    /// The server's own session, named by the path with its picker token; 404 for any other.
    private func session(_ context: BasicRequestContext) throws -> PickerSession {
        let id = try context.parameters.require("session"), token = try context.parameters.require("token")
        guard state.own.isOwn(id), let session = state.sessions.pickerSession(id, token: token) else { throw APIError.notFound }
        return session
    }

    private func noStore(_ response: Response) -> Response {
        var response = response
        response.headers[.cacheControl] = "no-store"
        return response
    }
}
