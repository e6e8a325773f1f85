/// What the access decision reads of a request: where it leads and the credentials it carries.
/// Made from a Hummingbird request (``AccessMiddleware``) or from a request head on the event
/// loop (``RenditionFastPath``), so both are judged by the one ``AccessGate``.
struct AccessRequest {
    /// Whether the request only reads (`GET`, `HEAD`) or may change something.
    var isRead: Bool
    /// The area the path leads to, read as the router reads it; `nil` for none.
    var area: RouteArea?
    /// Whether the path is one of the person's JSON APIs: the picker page's
    /// (`/picker/{session}/{token}/api/…`) or the demo client's mirror of the client API
    /// (`/demo/v1/…`). Refused with JSON, never with the sign-in page.
    var isPersonAPI: Bool
    /// The path of a page of the person's (a picker page, `/picker/{session}/{token}/` or with
    /// `autoclose` after it, or the demo client page, `/demo/`) in its canonical spelling; `nil`
    /// for any other path.
    var personPagePath: String?
    /// For a page of the person's (a picker page or the demo client page, not `autoclose`)
    /// spelled with an empty segment (a repeated slash, `//demo/`, `/picker//S/T/`): its
    /// canonical path. A page's scripts build their URLs on its path, and one that starts `//`
    /// names another host. Without its trailing slash a page is served as it is: its scripts add
    /// the slash, and Foundation's URLSession drops it when it follows a redirect (so sending
    /// `/picker/S/T` to `/picker/S/T/` would loop). `nil` for every other path.
    var canonicalPagePath: String?
    /// The value of the person's cookie, if the request carries it.
    var personToken: Substring?
    /// The `Authorization` header, if any.
    var authorization: Substring?
    /// The `Origin` header, if any.
    var origin: Substring?
    /// The `Sec-Fetch-Site` header, if any.
    var fetchSite: Substring?
    /// The `Host` the request was addressed to (its authority), if any.
    var host: Substring?

    /// A request for `path` (a request target's path, without its query).
    init(isRead: Bool, path: Substring, personToken: Substring?, authorization: Substring?,
         origin: Substring?, fetchSite: Substring?, host: Substring?) {
        let components = RouteArea.components(of: path)
        self.isRead = isRead
        area = RouteArea(components: components)
        switch area {
        case .picker?:
            isPersonAPI = components.count >= 4 && components[3] == "api"
            if components.count == 3 || (components.count == 4 && components[3] == "autoclose") {
                personPagePath = "/" + components.joined(separator: "/") + (components.count == 3 ? "/" : "")
            }
            if components.count == 3, path.contains("//") { canonicalPagePath = personPagePath }
        case .demoClient?:
            isPersonAPI = components.count >= 2
            if components.count == 1 { personPagePath = DemoClientRoutes.pagePath }
            if components.count == 1, path.contains("//") { canonicalPagePath = DemoClientRoutes.pagePath }
        default:
            isPersonAPI = false
        }
        self.personToken = personToken
        self.authorization = authorization
        self.origin = origin
        self.fetchSite = fetchSite
        self.host = host
    }

    /// A `GET` of the picker page's API carrying `personToken`: what the event loop's fast
    /// path answers, whose target it has read as the router would route it (``PickerImageTarget``).
    init(pickerAPIReadWith personToken: Substring?) {
        isRead = true
        area = .picker
        isPersonAPI = true
        self.personToken = personToken
    }
}
