import AssetsKit
import Foundation
import HTTPTypes
import Hummingbird
import PickerSessions

/// The person's side: the web picker's files and the API its page calls
/// (`/picker/{session}/{token}/api/…`, see docs/PICKER-UI-API.md).
///
/// Only the signed-in person reaches these paths (``AccessGate``). A picker path with a wrong
/// token answers as an unknown session (404), as does one of a session the client deleted; once
/// the session has ended (Done, Cancel) or expired every picker path answers 410 Gone.
struct PickerPageRoutes: Sendable {
    let state: ServerState
    let files: StaticFiles
    let browsing: PickerBrowsing
    let picking: PickerPicking
    let importing: PickerImporting
    let events: PickerEvents

    init(state: ServerState, files: StaticFiles) {
        self.state = state
        self.files = files
        browsing = PickerBrowsing(state: state)
        picking = PickerPicking(state: state)
        importing = PickerImporting(state: state)
        events = PickerEvents(state: state, heartbeat: state.configuration.limits.eventHeartbeat)
    }

    func add(to router: Router<BasicRequestContext>) {
        router.get("ui/**") { request, context in
            try files.uiResponse(context.parameters.getCatchAll().joined(separator: "/"), request: request)
        }
        let page = router.group("picker/:session/:token")
        page.get { request, context in
            switch try await access(context, allowEnded: true) {
            case .picking:
                var response = try files.response(StaticFiles.page, request: request)
                response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
                response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
                return response
            case .ended:
                return Self.endedPage
            }
        }
        // `pickerUri` + `/autoclose`, as Google's Picker API takes it: the page closes itself after Done.
        page.get("autoclose") { request, context in
            _ = try await access(context, allowEnded: true)
            let id = try context.parameters.require("session"), token = try context.parameters.require("token")
            return Response(status: .seeOther, headers: [.location: "/picker/\(id)/\(token)/?autoclose=1", .cacheControl: "no-store"])
        }
        let api = page.group("api")
        let grant: GrantResolver = { context in try await access(context).grant }
        browsing.add(to: api, grant: grant)
        picking.add(to: api, grant: grant)
        importing.add(to: api, grant: grant)
        events.add(to: api, grant: grant)
    }

    /// The session a picker path names, checked: 404 when unknown, deleted or the token is
    /// wrong, 410 when it has ended or expired (unless `allowEnded`).
    func access(_ context: BasicRequestContext, allowEnded: Bool = false) async throws -> PickerAccess {
        let id = try context.parameters.require("session"), token = try context.parameters.require("token")
        guard let session = try await state.sessions.pickerSession(id, token: token) else {
            guard try await state.sessions.hasExpired(id, token: token) else { throw APIError.notFound }
            if allowEnded { return .ended }
            throw APIError.gone
        }
        guard session.state == .picking else {
            state.grants.forget(id)
            if allowEnded { return .ended }
            throw APIError.gone
        }
        guard !session.pendingPreselection.isEmpty else {
            state.grants.remember(session)
            return .picking(PickerAccess.Grant(session: session, token: token))
        }
        // The person's first look: the client's preselection is resolved now, never in its own requests.
        let preselection = try await Preselection.resolve(session.pendingPreselection, in: state.library, settings: session.settings)
        do {
            let resolved = try await state.sessions.applyPreselection(preselection, session: id, token: token)
            state.grants.remember(resolved)
            return .picking(PickerAccess.Grant(session: resolved, token: token))
        } catch is PickerSessionError {
            state.grants.forget(id)
            if allowEnded { return .ended }
            throw APIError.gone
        }
    }

    /// Only the server's own scripts, styles and images; no framing.
    static let contentSecurityPolicy =
        "default-src 'self'; img-src 'self' blob: data:; media-src 'self' blob:; style-src 'self'; script-src 'self'; frame-ancestors 'none'; base-uri 'none'"

    private static var endedPage: Response {
        let html = """
            <!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width">
            <title>Picker session ended</title><body style="font-family: system-ui, sans-serif; padding: 3rem">
            <main><h1>This picker session has ended</h1><p>You can close this page.</p></main></body></html>
            """
        return Response(status: .gone, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}

/// What a picker path may do: pick in a live session, or nothing because it ended.
enum PickerAccess: Sendable {
    struct Grant: Sendable {
        let session: PickerSession
        let token: String
    }

    case picking(Grant)
    case ended

    /// The grant of a live session (``PickerPageRoutes/access(_:allowEnded:)`` without `allowEnded` returns no other).
    var grant: Grant {
        get throws {
            guard case .picking(let grant) = self else { throw APIError.gone }
            return grant
        }
    }
}

/// The grant of a picker path's live session; throws 404 or 410 as ``PickerPageRoutes/access(_:allowEnded:)``.
typealias GrantResolver = @Sendable (BasicRequestContext) async throws -> PickerAccess.Grant
