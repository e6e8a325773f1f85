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
        default: return nil
        }
    }

    /// The principal the area needs.
    var principal: Principal {
        switch self {
        case .home, .apiDocument, .webFiles, .signIn: .anyone
        case .client: .client
        case .picker: .person
        }
    }

    /// `path`'s components as the router matches them.
    static func components(of path: Substring) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }
}
