/// The part of the server a request's path leads to, read exactly as the router reads the path:
/// split at `/` with empty components dropped, nothing decoded, case kept. So `//picker/…`,
/// `/picker//…` and `/picker/…/` lead where the router takes them, and a spelling the router
/// would not route (`/%70icker/…`, `/PICKER/…`, `/x/../picker/…`) leads nowhere.
enum RouteArea: Sendable, Equatable {
    /// `/`: the server's home page.
    case home
    /// `/openapi.json`: the client API's description.
    case apiDocument
    /// `/ui/…`: the web picker's own files.
    case webFiles
    /// `/signin/{link}`: the person's one-time sign-in links.
    case signIn
    /// `/v1/…`: the client programs' API.
    case client
    /// `/picker/…`: the person's picker pages, their API and event stream.
    case picker
    /// `/demo/…`: the demo client page, a client program run in the person's browser, and its
    /// mirror of the client API (`/demo/v1/…`) for the person's own sessions.
    case demoClient

    /// Who may reach an area.
    enum Principal: Sendable {
        /// Anyone: the area holds nothing of the library.
        case anyone
        /// A client program holding the client key.
        case client
        /// The person, in a browser signed in through a one-time link.
        case person
    }

    /// The area `path` (a request target's path, without its query) leads to; `nil` for a path
    /// that leads to no area, which no route takes.
    init?(path: some StringProtocol) {
        self.init(components: Self.components(of: Substring(path)))
    }

    /// The area a path with these components (as ``components(of:)`` gives them) leads to.
    init?(components: [Substring]) {
        guard let first = components.first else {
            self = .home
            return
        }
        switch first {
        case "openapi.json" where components.count == 1: self = .apiDocument
        case "ui": self = .webFiles
        case "signin": self = .signIn
        case "v1": self = .client
        case "picker": self = .picker
        case "demo": self = .demoClient
        default: return nil
        }
    }

    /// The principal the area needs.
    var principal: Principal {
        switch self {
        case .home, .apiDocument, .webFiles, .signIn: .anyone
        case .client: .client
        case .picker, .demoClient: .person
        }
    }

    /// Whether `path` answers as the client API does, errors in the Google Photos Picker API's
    /// form: the client API (`/v1/…`) and the demo client's mirror of it (`/demo/v1/…`).
    static func answersAsClientAPI(_ path: Substring) -> Bool {
        let components = components(of: path)
        switch RouteArea(components: components) {
        case .client?: return true
        case .demoClient?: return components.count >= 2 && components[1] == "v1"
        default: return false
        }
    }

    /// `path`'s components as the router matches them.
    static func components(of path: Substring) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }
}
