import HTTPTypes
import Hummingbird

/// Puts every request the router takes before the ``AccessGate``, first of all middleware: what
/// the gate lets through goes on to the routes; what it refuses is answered with its one
/// refusal; a page of the person's (a picker page, the demo client page) opened without the
/// person's sign-in gets the sign-in page (the same for every picker path, live, ended or made
/// up) and the operator, unless an unused link is still live, a new link leading back to it.
///
/// Unlike the event loop's fast path it can wait, so a browser this server has not seen signed
/// in is looked up in the sign-in store first (``AccessGate/decideLookingUp(_:personCookies:)``). When the
/// store cannot answer, the request gets 503 with `Retry-After` (`signInUnavailable`), neither
/// the sign-in page nor its route.
struct AccessMiddleware<Context: RequestContext>: RouterMiddleware {
    let state: ServerState
    /// The server's gate, made once (not per request).
    private let access: AccessGate

    init(state: ServerState) {
        self.state = state
        access = state.access
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let verdict: AccessGate.Verdict
        do {
            let cookies = PersonCookie.values(named: state.personCookieName, in: request.headers[values: .cookie])
            verdict = try await access.decideLookingUp(Self.accessRequest(request, personToken: cookies.first), personCookies: cookies)
        } catch {
            throw state.signInUnavailable(error)
        }
        switch verdict {
        case .pass:
            return try await next(request, context)
        case .refuse(let error):
            throw error
        case .signInPage(let page):
            do {
                try await offerSignInLink(returningTo: page)
            } catch {
                throw state.signInUnavailable(error)
            }
            return SignInPages.required
        case .redirect(let page):
            let location = page + (request.uri.query.map { "?" + $0 } ?? "")
            return Response(status: .permanentRedirect, headers: [.location: location, .cacheControl: "no-store"])
        }
    }

    /// What the gate reads of `request`.
    static func accessRequest(_ request: Request, personToken: Substring?) -> AccessRequest {
        let headers = request.headers
        func value(_ name: HTTPField.Name) -> Substring? { headers[name].map { Substring($0) } }
        let authority: Substring? = request.head.authority.map { Substring($0) }
        return AccessRequest(isRead: request.method == .get || request.method == .head, path: Substring(request.uri.path),
                             personToken: personToken,
                             authorization: value(.authorization), origin: value(.origin), fetchSite: value(secFetchSite),
                             host: authority)
    }

    /// Shows the operator a new sign-in link, unless an unused one is live (so a stranger's
    /// visits make at most one per link lifetime); it leads back to `page` when there is one.
    private func offerSignInLink(returningTo page: String?) async throws {
        guard let link = try await state.signIn.makeLinkUnlessOneIsLive() else { return }
        state.showSignInLink(state.baseURL + SignInRoutes.path(link: link, next: page.flatMap { SignInRoutes.isPersonPage($0) ? $0 : nil }))
    }

    private static var secFetchSite: HTTPField.Name { HTTPField.Name("Sec-Fetch-Site")! }
}
