import Foundation

/// Where the person's sign-in links and signed-in browsers are kept, so that a link made on one
/// server is taken on any other, once, and a browser signed in on one is signed in on all, after
/// any of them is killed.
///
/// A store holds `id` and a SHA-256 digest of each secret, never the secret: reading the store
/// signs nobody in. Times are the store's: a link or browser lives `lifetime` from the store's
/// time when it was kept, and has expired when the store's time has reached that. Each method is
/// one step for every server sharing the store.
///
/// ``PersonSignIn`` keeps what is not a fact about the person: the throttle of refused attempts
/// (per process), the making of secrets and their comparison in constant time, and a cache of
/// signed-in browsers for the requests that cannot wait for a database (the event loop's fast
/// path). ``MemorySignInStore`` keeps them in this process; a database store keeps them for
/// every server.
public protocol SignInStoring: Sendable {
    /// Keeps a new link `id` whose secret has `digest`, live until `lifetime` from the store's
    /// time now, dropping the links that expire first when `capacity` are live.
    /// - Parameters:
    ///   - id: The link's public half.
    ///   - digest: The SHA-256 digest of the link's secret.
    ///   - lifetime: How long the link works.
    ///   - capacity: The most links kept live at once.
    ///   - unlessOneIsLive: Keep it only when no unused link is live (what a sign-in page asks
    ///     for); decided in one step for every server.
    /// - Returns: Whether it was kept.
    func keepLink(id: String, digest: [UInt8], lifetime: Duration, capacity: Int,
                  unlessOneIsLive: Bool) async throws -> Bool

    /// Takes the link `id` if its secret's digest is `digest`: afterwards no server finds it.
    /// A link whose digest does not match stays.
    /// - Returns: Whether it was there, matched and was live.
    func takeLink(id: String, digest: [UInt8]) async throws -> Bool

    /// Keeps a new signed-in browser `id` whose secret has `digest`, live until `lifetime` from
    /// the store's time now, dropping those that expire first when `capacity` are live.
    /// - Returns: When it stops being signed in.
    func keepBrowser(id: String, digest: [UInt8], lifetime: Duration, capacity: Int) async throws -> Date

    /// The digest of each browser's secret among `ids` and when it stops being signed in, by id;
    /// those unknown or expired are left out. One question however many ids: a request's
    /// cookies of the person's name are asked about together (``PersonSignIn/recall(browsers:)``).
    func browsers(ids: [String]) async throws -> [String: (digest: [UInt8], expires: Date)]
}
