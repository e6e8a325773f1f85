import Foundation

/// Which origins are this server's own, for the person's requests that change something.
///
/// A browser sends `Origin` with every such request, and `Sec-Fetch-Site` too. The request is
/// the server's own page's when `Sec-Fetch-Site`, if sent, says `same-origin` and `Origin` is
/// the server's base URL (``ServerState/baseURL``: `--public-url`, else the address it listens
/// on), or the origin the request was addressed to when that names this server: an IP address
/// or a `localhost` name at the port it listens on, over `http`, the only scheme the server
/// speaks itself (an `https` page is another origin; behind a TLS proxy, `--public-url` names the
/// `https` origin). A name that could be anyone's (a DNS name pointed at this machine by another
/// site, as in DNS rebinding) is not taken from the request: serve under such a name with `--public-url`.
struct SameOrigin: Sendable {
    /// The server's base URL, without a trailing slash; read when asked (the port is known once bound).
    let baseURL: @Sendable () -> String
    /// The port the server listens on, once it does.
    let port: @Sendable () -> Int?

    /// Whether a request with these headers comes from one of this server's pages.
    func allows(origin: Substring?, fetchSite: Substring?, host: Substring?) -> Bool {
        if let fetchSite, fetchSite != "same-origin" { return false }
        guard let origin else { return false }
        if origin == baseURL() { return true }
        guard let host, origin.hasPrefix("http://"), origin.dropFirst(7) == host else { return false }
        return namesThisServer(host)
    }

    /// Whether `host` (a `Host` header: a name or address and a port) is an IP address or a
    /// `localhost` name, with the port this server listens on.
    private func namesThisServer(_ host: Substring) -> Bool {
        guard let colon = host.lastIndex(of: ":"), let port = port(), host[host.index(after: colon)...] == String(port) else {
            return false
        }
        var name = host[..<colon]
        if name.hasPrefix("["), name.hasSuffix("]") { name = name.dropFirst().dropLast() }
        let lowercased = name.lowercased()
        if lowercased == "localhost" || lowercased.hasSuffix(".localhost") { return true }
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, String(name), &v4) == 1 || inet_pton(AF_INET6, String(name), &v6) == 1
    }
}
