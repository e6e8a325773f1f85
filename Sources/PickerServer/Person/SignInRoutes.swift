import Foundation
import Hummingbird
import PickerSessions

/// `GET /signin/{link}`: the person opens the one-time link `serve` printed; the browser is
/// signed in (``PersonCookie``) and goes on to the page named by `next` (a picker page or the
/// demo client page), if any.
///
/// The link is used up by that request and works only for its lifetime; a link used again,
/// expired or made up gets the same refusal. A `HEAD` (a link preview) uses nothing up.
struct SignInRoutes: Sendable {
    let state: ServerState

    func add(to router: Router<BasicRequestContext>) {
        router.get("signin/:link") { request, context in
            guard request.method == .get else { return Response(status: .ok, headers: [.cacheControl: "no-store"]) }
            let address = ClientAddress.forwarded(request, trusting: state.configuration.limits.trustedProxies)
            let browser: String
            let link = try context.parameters.require("link")
            let attempt: PersonSignIn.Attempt
            do {
                attempt = try await state.signIn.attempt(link: link, from: address)
            } catch {
                throw state.signInUnavailable(error)
            }
            switch attempt {
            case .signedIn(let token):
                browser = token
            case .refused(let isFirst):
                // One line per address and minute: guesses cannot flood the log.
                if isFirst { state.logger.notice("a sign-in link was refused (used, expired or unknown)", metadata: ["address": "\(address)"]) }
                return SignInPages.linkRefused
            case .throttled(let retryAfter):
                return SignInPages.throttled(retryAfter: retryAfter)
            }
            state.logger.info("a browser signed in as the person")
            let next = request.uri.queryParameters.get("next").flatMap { Self.isPersonPage($0) ? $0 : nil }
            var response = SignInPages.signedIn(next: next)
            response.headers[.setCookie] = PersonCookie.setCookie(name: state.personCookieName, token: browser,
                                                                  maxAge: Int(state.signIn.browserLifetime.components.seconds))
            return response
        }
    }

    /// The path of a sign-in link, going on to `next` (a page of the person's, ``isPersonPage(_:)``) once signed in.
    static func path(link: String, next: String?) -> String {
        "/signin/\(link)" + (next.map { "?next=\($0)" } ?? "")
    }

    /// Whether `path` is a page of the person's: a picker page's path (`/picker/{session}/{token}/`,
    /// or with `autoclose` after it) or the demo client page (`/demo/`). Those are the only places
    /// a sign-in goes on to, so that a link cannot be made to send the browser elsewhere.
    static func isPersonPage(_ path: String) -> Bool {
        if path == DemoClientRoutes.pagePath { return true }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0].isEmpty, parts[1] == "picker", parts[4].isEmpty || parts[4] == "autoclose" else { return false }
        return parts[2...3].allSatisfy { part in
            (1...64).contains(part.utf8.count) && part.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                     UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"): true
                default: false
                }
            }
        }
    }
}
