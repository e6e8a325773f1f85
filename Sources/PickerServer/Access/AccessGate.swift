import PickerSessions

/// The one access decision of the server: every request, whichever way it arrives (the router's
/// middleware, ``AccessMiddleware``, or the warm-thumbnail answers on the event loop,
/// ``RenditionFastPath``), is judged here before anything of the library is read.
///
/// It decides on the path as the router reads it (``RouteArea``), so no spelling of a path
/// (repeated or trailing slashes, say) reaches a route that its canonical form would not, and
/// it denies by default: a path that leads to no area is refused as unknown before any route
/// sees it. Then each area asks for its principal: nobody for the home page, the API
/// description, the web picker's files and the sign-in links; the client key for `/v1/…`; the
/// person's signed-in browser for `/picker/…` and `/demo/…`, whose requests that change
/// something must also come from one of this server's own pages, and whose pages are served
/// only at their canonical paths (another spelling is sent there).
struct AccessGate: Sendable {
    /// The client key, compared in constant time.
    let clientKey: String
    /// The person's sign-in: which browsers are signed in.
    let signIn: PersonSignIn
    /// This server's own origins (``SameOrigin``).
    let origins: SameOrigin

    /// What to do with a request.
    enum Verdict {
        /// Let it through to its route.
        case pass
        /// Answer with this error, and nothing else.
        case refuse(APIError)
        /// A page of the person's opened by a browser that has not signed in: answer the sign-in
        /// page, offering a new link that leads back to `page` (when it is a picker page or the
        /// demo client page).
        case signInPage(returningTo: String?)
        /// A page of the person's asked for, signed in, at another spelling of its path: send the
        /// browser to its canonical path (the page's scripts build their URLs on it).
        case redirect(toPage: String)
    }

    /// The decision for `request` where it can wait (the router's middleware): a person's
    /// browser this process has not seen signed in is first looked up in the sign-in store (it
    /// may have signed in through another server, or before this one started), then
    /// ``decide(_:)`` decides. Of several cookies of the person's name in `personCookies` (a
    /// site on another port of the host can set them, which would otherwise sign the person
    /// out), the first signed-in one counts (``PersonSignIn/recall(browsers:)``: one question to
    /// the store for all).
    /// - Throws: What the sign-in store threw: whether the browser is signed in is not known,
    ///   and the request is neither let through nor sent to sign in.
    func decideLookingUp(_ request: AccessRequest, personCookies: [Substring]) async throws -> Verdict {
        var request = request
        if case .person? = request.area?.principal, let token = try await signIn.recall(browsers: personCookies) {
            request.personToken = token
        }
        return decide(request)
    }

    /// The decision for `request`, without waiting: a person's browser is signed in only when
    /// this process has seen it signed in (``decideLookingUp(_:personCookies:)`` looks further). The event
    /// loop's fast path asks this; what it does not let through goes on to the router.
    func decide(_ request: AccessRequest) -> Verdict {
        guard let area = request.area else { return .refuse(.notFound) }
        switch area.principal {
        case .anyone:
            return .pass
        case .client:
            return isClient(request.authorization) ? .pass : .refuse(.unauthorized)
        case .person:
            guard let token = request.personToken, signIn.isSignedIn(browser: token) else {
                guard request.isRead, !request.isPersonAPI else { return .refuse(.signInRequired) }
                return .signInPage(returningTo: request.personPagePath)
            }
            guard request.isRead || origins.allows(origin: request.origin, fetchSite: request.fetchSite, host: request.host) else {
                return .refuse(.crossOrigin)
            }
            if request.isRead, let canonical = request.canonicalPagePath { return .redirect(toPage: canonical) }
            return .pass
        }
    }

    /// Whether `authorization` is `Bearer <the client key>`.
    private func isClient(_ authorization: Substring?) -> Bool {
        guard let header = authorization, header.utf8.count > 7, header.prefix(7).lowercased() == "bearer " else { return false }
        return SecretToken.matches(header.dropFirst(7), clientKey)
    }
}
