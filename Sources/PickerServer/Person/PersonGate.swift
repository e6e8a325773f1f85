import HTTPTypes
import Hummingbird

/// Lets through to the picker (`/picker/…`: its pages, their API, the event stream, uploads)
/// only the browser the person signed in, and of its requests that change something only those
/// sent by the picker's own pages.
///
/// Without the person's cookie every picker path gets the same refusal, whatever it names (a
/// live session, an ended one, nothing): the sign-in page for a page, 401 JSON for the API. A
/// client program holding the client key and a `pickerUri` therefore reaches nothing of the
/// library. A request that changes something must carry an `Origin` of this server (browsers
/// send one with every such request); with `SameSite=Strict` this keeps other sites' pages out.
struct PersonGate<Context: RequestContext>: RouterMiddleware {
    let state: ServerState

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        guard path == "/picker" || path.hasPrefix("/picker/") else { return try await next(request, context) }
        guard state.isPerson(cookieHeaders: request.headers[values: .cookie]) else {
            guard !path.contains("/api/"), request.method == .get || request.method == .head else { throw APIError.signInRequired }
            offerSignInLink(returningTo: path)
            return SignInPages.required
        }
        if request.method != .get, request.method != .head, !Self.isSameOrigin(request, baseURL: state.baseURL) {
            throw APIError.crossOrigin
        }
        return try await next(request, context)
    }

    /// Shows the operator a new sign-in link, unless an unused one is live (so a stranger's
    /// visits make at most one per link lifetime); it leads back to `path` when that is a picker page.
    private func offerSignInLink(returningTo path: String) {
        guard let link = state.signIn.makeLinkUnlessOneIsLive() else { return }
        // `pickerUri` + `/autoclose` has two slashes before `autoclose`: lead back to it with one.
        let page = path.hasSuffix("//autoclose") ? String(path.dropLast("//autoclose".count)) + "/autoclose" : path
        state.showSignInLink(state.baseURL + SignInRoutes.path(link: link, next: SignInRoutes.isPickerPage(page) ? page : nil))
    }

    /// Whether the request comes from a page of this server: `Sec-Fetch-Site`, when sent, says
    /// `same-origin`, and `Origin` is the origin the request was addressed to or the server's own.
    static func isSameOrigin(_ request: Request, baseURL: String) -> Bool {
        if let site = request.headers[secFetchSite], site != "same-origin" { return false }
        guard let origin = request.headers[.origin] else { return false }
        if origin == baseURL { return true }
        guard let host = request.head.authority else { return false }
        return origin == "http://\(host)" || origin == "https://\(host)"
    }

    private static var secFetchSite: HTTPField.Name { HTTPField.Name("Sec-Fetch-Site")! }
}
