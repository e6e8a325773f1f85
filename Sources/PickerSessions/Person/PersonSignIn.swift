import AssetsKit
import Foundation
import Synchronization

/// The person's sign-in: one-time sign-in links and the browsers they signed in.
///
/// The picker server has two principals. A client program holds the client key and receives
/// only picks; the *person*, the library's owner, browses and picks. The person proves who they
/// are by opening a one-time link that only the server's operator sees (`serve` prints it in its
/// terminal); opening it makes a browser token, kept by the browser as a cookie. Both are
/// `id.secret`: the id finds the entry, the secret (128 bits for links, 256 for browsers) is
/// compared in constant time. A link works once and for ``linkLifetime``; a browser stays signed
/// in for ``browserLifetime``.
///
/// The links and browsers are kept by a ``SignInStoring`` store, as digests of their secrets: in
/// this process's memory by default (``MemorySignInStore``: a restart signs every browser out),
/// or in a database every server shares, where a link printed by one server is taken once by any
/// of them and a browser signed in on one is signed in on all. What stays in this process: the
/// throttle of refused attempts, and the browsers it has seen signed in, so that
/// `isSignedIn(browser:)` answers without waiting for the store; a browser it has
/// not seen yet is looked up with ``recall(browsers:)`` first.
public final class PersonSignIn: Sendable {
    /// How long a sign-in link can be used.
    public let linkLifetime: Duration
    /// How long a signed-in browser stays signed in.
    public let browserLifetime: Duration
    private let store: any SignInStoring
    private let now: @Sendable () -> Date
    private let attempts = Mutex(SignInAttempts())
    private let browsers = Mutex(SignedInBrowsers(capacity: PersonSignIn.capacity.browsers))

    /// Live links and browsers kept at most; beyond that the ones that expire first go.
    private static let capacity = (links: 16, browsers: 1_000)

    /// What came of opening a sign-in link.
    public enum Attempt: Sendable, Equatable {
        /// The link was live and unused: the browser is signed in with this token.
        case signedIn(browser: String)
        /// The link was used, expired or made up; `isFirst` for the first such refusal from the
        /// address in the current window (the one worth reporting).
        case refused(isFirst: Bool)
        /// Too many refusals from the address, or from all, lately: the link was not looked at;
        /// try again after `retryAfter` seconds.
        case throttled(retryAfter: Int)
    }

    /// A sign-in with links living `linkLifetime` (default 15 minutes) and browsers signed in for
    /// `browserLifetime` (default 12 hours).
    /// - Parameters:
    ///   - store: Where links and browsers are kept; by default a new ``MemorySignInStore`` on `now`.
    ///   - linkLifetime: How long a sign-in link works, unused.
    ///   - browserLifetime: How long a browser stays signed in.
    ///   - now: The clock of the throttle and of the browsers remembered in this process.
    public init(store: (any SignInStoring)? = nil, linkLifetime: Duration = .seconds(15 * 60),
                browserLifetime: Duration = .seconds(12 * 3_600), now: @escaping @Sendable () -> Date = Date.init) {
        self.store = store ?? MemorySignInStore(now: now)
        self.linkLifetime = linkLifetime
        self.browserLifetime = browserLifetime
        self.now = now
    }

    /// A new one-time sign-in link token.
    /// - Throws: What the store threw (a database that cannot be reached).
    public func makeLink() async throws -> String {
        let (link, id, digest) = Self.newLink()
        _ = try await store.keepLink(id: id, digest: digest, lifetime: linkLifetime, capacity: Self.capacity.links, unlessOneIsLive: false)
        return link
    }

    /// A new one-time link token when no unused one is live, else `nil`: what a sign-in page
    /// asks for, so that anyone reaching the server (any server sharing the store) can make at
    /// most one link per lifetime.
    /// - Throws: What the store threw.
    public func makeLinkUnlessOneIsLive() async throws -> String? {
        let (link, id, digest) = Self.newLink()
        let kept = try await store.keepLink(id: id, digest: digest, lifetime: linkLifetime, capacity: Self.capacity.links, unlessOneIsLive: true)
        return kept ? link : nil
    }

    /// A new link's token, its id and the digest of its secret.
    private static func newLink() -> (link: String, id: String, digest: [UInt8]) {
        let id = SecretToken.make(), secret = SecretToken.make()
        return ("\(id).\(secret)", id, SecretDigest.of(secret.utf8))
    }

    /// Uses up a sign-in link opened from `address`: a new browser token when the link is live
    /// and unused. Refusals are counted per address and in all, in this process: past 10 from
    /// one address, or 100 from all, in a minute, attempts are throttled until the minute is over.
    /// - Throws: What the store threw; the refusal is not counted then (a link the store had
    ///   taken before it failed stays used up).
    public func attempt(link token: String, from address: String) async throws -> Attempt {
        let time = now()
        if let retryAfter = attempts.withLock({ $0.isThrottled(address, at: time) ? $0.retryAfter(at: time) : nil }) {
            return .throttled(retryAfter: retryAfter)
        }
        guard let (id, secret) = Self.parts(of: token[...]),
              try await store.takeLink(id: id, digest: SecretDigest.of(secret.utf8)) else {
            return .refused(isFirst: attempts.withLock { $0.refused(address, at: now()) })
        }
        return .signedIn(browser: try await signInBrowser())
    }

    /// Uses up a sign-in link: a new browser token when the link is live and unused, else `nil`
    /// (``attempt(link:from:)`` from an address of its own).
    /// - Throws: What the store threw.
    public func redeem(link token: String) async throws -> String? {
        guard case .signedIn(let browser) = try await attempt(link: token, from: "") else { return nil }
        return browser
    }

    /// Keeps a new browser in the store and remembers it here; its token.
    private func signInBrowser() async throws -> String {
        let id = SecretToken.make(), secret = SecretToken.make(byteCount: 32)
        let expires = try await store.keepBrowser(id: id, digest: SecretDigest.of(secret.utf8), lifetime: browserLifetime,
                                                  capacity: Self.capacity.browsers)
        remember(id: id, secret: secret, expires: expires)
        return "\(id).\(secret)"
    }

    /// Whether `token` is a signed-in browser that this process has seen (it signed it in, or
    /// ``recall(browsers:)`` found it in the store) and that has not expired. Never waits.
    ///
    /// Every thumbnail request asks it, so it reads the token's bytes in place: no string is
    /// made, split or copied. It takes a concrete `Substring` (what a cookie's value is), not
    /// any `StringProtocol`: a generic one called from another module would read each byte
    /// through protocol witnesses.
    public func isSignedIn(browser token: Substring) -> Bool {
        let time = now()
        guard let (id, secret) = Self.split(token) else { return false }
        return browsers.withLock { $0.matches(id, secret: secret, at: time) }
    }

    /// Whether `token` is a signed-in browser this process has seen and that has not expired.
    public func isSignedIn(browser token: String) -> Bool {
        isSignedIn(browser: token[...])
    }

    /// The first of `tokens` (the values of the cookies of the person's name a request carries,
    /// in order) that is a signed-in browser: one this process has seen if there is one, else
    /// the first the store knows (a browser signed in through another server, or before this one
    /// started), asked about all of them at once, and then remembered, so that
    /// `isSignedIn(browser:)` answers for it from then on.
    ///
    /// Another site on the host can set cookies of the person's name, which the browser sends
    /// before the person's own: every token is looked at, so none of them signs the person out
    /// (four made-up ones did while only the first four were looked at; an outside attack), and
    /// the store is asked one question however many there are.
    /// - Throws: What the store threw: whether the browser is signed in is then not known.
    public func recall(browsers tokens: [Substring]) async throws -> Substring? {
        if let seen = tokens.first(where: isSignedIn(browser:)) { return seen }
        let candidates = tokens.compactMap { token in Self.parts(of: token).map { (token, $0.id, $0.secret) } }
        guard !candidates.isEmpty else { return nil }
        let kept = try await store.browsers(ids: candidates.map(\.1))
        for (token, id, secret) in candidates {
            guard let browser = kept[id], SecretToken.matches(SecretDigest.of(secret.utf8), browser.digest) else { continue }
            remember(id: id, secret: secret, expires: browser.expires)
            return token
        }
        return nil
    }

    private func remember(id: String, secret: String, expires: Date) {
        guard let key = TokenID(id.utf8) else { return }
        let time = now()
        browsers.withLock { $0.remember(key, secret: secret, expires: expires, at: time) }
    }

    /// The id and secret of `token` as strings (for the store), when it has the form of one this
    /// server makes: both spelled in base64url, so that nothing else reaches the store.
    private static func parts(of token: Substring) -> (id: String, secret: String)? {
        guard split(token) != nil, let dot = token.firstIndex(of: ".") else { return nil }
        let id = token[..<dot], secret = token[token.index(after: dot)...]
        guard !secret.isEmpty, isBase64URL(id), isBase64URL(secret) else { return nil }
        return (String(id), String(secret))
    }

    private static func isBase64URL(_ text: Substring) -> Bool {
        text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"): true
            default: false
            }
        }
    }

    private static func split(_ token: Substring) -> (id: TokenID, secret: Substring.UTF8View.SubSequence)? {
        let bytes = token.utf8
        guard bytes.count <= 128, let dot = bytes.firstIndex(of: UInt8(ascii: ".")),
              let id = TokenID(bytes[..<dot]) else { return nil }
        return (id, bytes[bytes.index(after: dot)...])
    }
}
