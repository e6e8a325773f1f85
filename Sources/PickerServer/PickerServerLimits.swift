import Foundation
import NIOCore

/// What a picker server grants one connection, one address and one upload, so that idle or
/// slow connections and large uploads cost little. Each refusal is one clear line.
public struct PickerServerLimits: Sendable {
    /// How long a connection may stay open with no request under way; then it is closed.
    public var idleTimeout: Duration = .seconds(60)
    /// How long a request's head (request line and headers) may take to arrive, from its
    /// first byte; a slower one (slowloris) gets 408 and the connection is closed.
    public var headerTimeout: Duration = .seconds(10)
    /// How long a request's body may pause while the server waits for it; a longer pause gets
    /// 408 and the connection is closed. A body over its route's limit by its `Content-Length`
    /// is refused 413 before any of it is read.
    public var bodyTimeout: Duration = .seconds(10)
    /// The slowest a request's body may come on average, in bytes a second, once
    /// ``bodyTimeout`` has passed: each byte received lets the server wait 1/rate second more
    /// (only time it waits counts), so a body trickled in cannot hold a connection for long.
    public var minimumBodyRate = 1_024
    /// Connections one client address may hold open at once; one more is answered 503 and closed.
    /// A trusted proxy's connections (``trustedProxies``) are counted in all, not per address:
    /// the proxy carries every client's requests and holds each client to a limit of its own.
    public var connectionsPerAddress = 128
    /// The addresses of proxies in front of the server (nginx at one address over several
    /// servers): for a request that comes from one of them, the client's address — what the
    /// sign-in throttle counts refusals by — is the one the proxy put in `X-Real-IP`. From any
    /// other peer the header is ignored, so a client cannot name an address of its choosing.
    /// Empty (the default): no proxy is trusted.
    public var trustedProxies: Set<String> = []

    /// `text` as a connection's peer is written (`127.0.0.1`, `::1`), as ``trustedProxies`` holds
    /// a proxy's address and the sign-in throttle a forwarded client's; `nil` when it is not an
    /// IPv4 or IPv6 address.
    public static func ipAddress(_ text: String) -> String? {
        (try? SocketAddress(ipAddress: text, port: 0))?.ipAddress
    }
    /// Connections the server holds open at once, from all addresses; one more is answered 503
    /// and closed. `nil`: as many as the process's open-file limit leaves room for, after a
    /// reserve for the files it reads (the server first raises its soft limit to the hard one).
    public var maximumConnections: Int?
    /// The largest upload taken (`POST api/upload`): a larger one gets 413, before its bytes
    /// are read when it says its length, and its temporary file is removed.
    public var maximumUploadBytes = 512 << 20
    /// Uploads received at once, server-wide: one more gets 503 with `Retry-After`. Uploads
    /// stream to a temporary file, so memory does not grow with their size.
    public var concurrentUploads = 2
    /// Images one session may have asked to be made and not received yet, whoever asked and
    /// however (the page's images, thumbnail batches and prefetch renders, the client's
    /// baseUrls; not those answered from memory): one more gets 429 unless it is more urgent
    /// than one of them — a visible cell's first image before a sharp upgrade before prefetch —
    /// which then stops in its place. A browser asks for six at a time at most.
    public var rendersPerSession = 32
    /// The person's own picker sessions alive at once: the one the server made at start and
    /// those the demo client page (`/demo/`) created. One more is answered 429
    /// `tooManySessions`, as one past the session store's capacity is, until one ends (deleted or
    /// expired), so the person's page cannot fill the store that client programs share. As many
    /// places of the store are kept for them: client programs share the capacity less these, so
    /// they cannot fill the store to the person's page either.
    public var ownSessions = 20
    /// How often a picker page's event stream (`api/events`) sends a comment line while nothing
    /// happens, so that proxies keep it open (and a page gone without closing is noticed).
    public var eventHeartbeat: Duration = .seconds(15)
    /// Where uploads are written while they arrive (each in a folder of its own, removed after);
    /// `nil`: the system's temporary folder.
    public var uploadFolder: URL?

    /// The defaults.
    public init() {}
}
