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
/// in for ``browserLifetime`` or until the server restarts (nothing is stored on disk).
public final class PersonSignIn: Sendable {
    /// How long a sign-in link can be used.
    public let linkLifetime: Duration
    /// How long a signed-in browser stays signed in.
    public let browserLifetime: Duration
    private let now: @Sendable () -> Date
    private let state = Mutex(State())

    /// Live links and browsers kept at most; beyond that the ones that expire first go.
    private static let capacity = (links: 16, browsers: 1_000)

    private struct Entry {
        let secret: String
        let expires: Date
    }

    private struct State {
        var links: [TokenID: Entry] = [:]
        var browsers: [TokenID: Entry] = [:]
        var attempts = SignInAttempts()
    }

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
    /// `browserLifetime` (default 12 hours); `now` is the clock.
    public init(linkLifetime: Duration = .seconds(15 * 60), browserLifetime: Duration = .seconds(12 * 3_600),
                now: @escaping @Sendable () -> Date = Date.init) {
        self.linkLifetime = linkLifetime
        self.browserLifetime = browserLifetime
        self.now = now
    }

    /// A new one-time sign-in link token.
    public func makeLink() -> String {
        let time = now()
        return state.withLock { state in Self.insert(into: &state.links, lifetime: linkLifetime, at: time, capacity: Self.capacity.links) }
    }

    /// A new one-time link token when no unused one is live, else `nil`: what a sign-in page
    /// asks for, so that anyone reaching the server can make at most one link per lifetime.
    public func makeLinkUnlessOneIsLive() -> String? {
        let time = now()
        return state.withLock { state in
            state.links = state.links.filter { $0.value.expires > time }
            guard state.links.isEmpty else { return nil }
            return Self.insert(into: &state.links, lifetime: linkLifetime, at: time, capacity: Self.capacity.links)
        }
    }

    /// Uses up a sign-in link opened from `address`: a new browser token when the link is live
    /// and unused. Refusals are counted per address and in all: past 10 from one address, or 100
    /// from all, in a minute, attempts are throttled until the minute is over.
    public func attempt(link token: String, from address: String) -> Attempt {
        let time = now()
        return state.withLock { state in
            if state.attempts.isThrottled(address, at: time) { return .throttled(retryAfter: state.attempts.retryAfter(at: time)) }
            guard Self.take(token[...], from: &state.links, at: time) else {
                return .refused(isFirst: state.attempts.refused(address, at: time))
            }
            return .signedIn(browser: Self.insert(into: &state.browsers, lifetime: browserLifetime, at: time,
                                                  capacity: Self.capacity.browsers, secretBytes: 32))
        }
    }

    /// Uses up a sign-in link: a new browser token when the link is live and unused, else `nil`
    /// (``attempt(link:from:)`` from an address of its own).
    public func redeem(link token: String) -> String? {
        guard case .signedIn(let browser) = attempt(link: token, from: "") else { return nil }
        return browser
    }

    /// Whether `token` is a browser this server signed in and that has not expired.
    ///
    /// Every thumbnail request asks it, so it reads the token's bytes in place: no string is
    /// made, split or copied. It takes a concrete `Substring` (what a cookie's value is), not
    /// any `StringProtocol`: a generic one called from another module would read each byte
    /// through protocol witnesses.
    public func isSignedIn(browser token: Substring) -> Bool {
        let time = now()
        return state.withLock { state in
            guard let (id, secret) = Self.split(token), let entry = state.browsers[id] else { return false }
            guard entry.expires > time else {
                state.browsers[id] = nil
                return false
            }
            return SecretToken.matches(secret, entry.secret.utf8)
        }
    }

    /// Whether `token` is a browser this server signed in and that has not expired.
    public func isSignedIn(browser token: String) -> Bool {
        isSignedIn(browser: token[...])
    }

    private static func insert(into entries: inout [TokenID: Entry], lifetime: Duration, at time: Date, capacity: Int,
                               secretBytes: Int = 16) -> String {
        entries = entries.filter { $0.value.expires > time }
        while entries.count >= capacity, let first = entries.min(by: { $0.value.expires < $1.value.expires }) {
            entries[first.key] = nil
        }
        let id = SecretToken.make(), secret = SecretToken.make(byteCount: secretBytes)
        // `make()` spells 16 bytes in 22 characters: always a valid id.
        entries[TokenID(id.utf8)!] = Entry(secret: secret, expires: time.addingTimeInterval(lifetime.seconds))
        return "\(id).\(secret)"
    }

    /// Removes the entry `token` names; whether it was live and its secret matched.
    private static func take(_ token: Substring, from entries: inout [TokenID: Entry], at time: Date) -> Bool {
        guard let (id, secret) = split(token), let entry = entries[id] else { return false }
        guard SecretToken.matches(secret, entry.secret.utf8) else { return false }
        entries[id] = nil
        return entry.expires > time
    }

    private static func split(_ token: Substring) -> (id: TokenID, secret: Substring.UTF8View.SubSequence)? {
        let bytes = token.utf8
        guard bytes.count <= 128, let dot = bytes.firstIndex(of: UInt8(ascii: ".")),
              let id = TokenID(bytes[..<dot]) else { return nil }
        return (id, bytes[bytes.index(after: dot)...])
    }
}
