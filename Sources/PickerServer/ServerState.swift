import AssetsKit
import Foundation
import Hummingbird
import Logging
import PickerSessions

/// What every route of a running server shares: the library, the sessions, the media responder.
struct ServerState: Sendable {
    let configuration: PickerServerConfiguration
    let library: any PhotoLibrary
    let sessions: any SessionStoring
    let media: MediaResponder
    let assets: AssetMemo
    let fetches: FetchMemo
    let logger: Logger
    /// The address the server is bound to, once it is.
    let boundAddress: BoundAddress
    /// The person's sign-in links and signed-in browsers.
    let signIn: PersonSignIn
    /// Shows a new sign-in link (a full URL) to the server's operator, e.g. in its terminal.
    let showSignInLink: @Sendable (String) -> Void
    /// The live sessions the router let a request into lately, for the event loop's fast path.
    var grants = SessionGrants()
    /// Which collections the person may open: all but the trash.
    let pickable = PickableCollections()
    /// Uploads being received (streamed to temporary files, a few at a time).
    let uploads = UploadSpool()

    /// The assets with these UUIDs that the session's media filter lets the person see.
    func visibleAssets(_ uuids: [UUID], session: PickerSession) async throws -> [Asset] {
        var found: [UUID: Asset] = [:]
        var missing: [AssetIdentifier] = []
        for uuid in uuids {
            if let asset = assets.asset(uuid) { found[uuid] = asset } else { missing.append(.local(LocalIdentifier(uuid: uuid))) }
        }
        if !missing.isEmpty {
            let lookup = try await library.assets(withIdentifiers: missing)
            assets.remember(lookup.found)
            for asset in lookup.found { found[asset.id.uuid] = asset }
        }
        return uuids.compactMap { found[$0] }.filter { Self.isVisible($0, in: session) }
    }

    /// The assets with these UUIDs that the person may pick now: visible in the session (see
    /// ``visibleAssets(_:session:)``) and still in the library as it is now, so an asset deleted
    /// or hidden since the picker listed it (by another process, say) is not picked.
    func pickableAssets(_ uuids: [UUID], session: PickerSession) async throws -> [Asset] {
        try await stillPickable(visibleAssets(uuids, session: session).map(\.id.uuid))
    }

    /// Whether the person picking in `session` may see `asset`: it passes the session's media
    /// filter and is not hidden. (Deleted assets never get this far: lookups leave them out and
    /// Recently Deleted is never listed.)
    static func isVisible(_ asset: Asset, in session: PickerSession) -> Bool {
        isVisible(asset, filter: session.settings.mediaFilter)
    }

    /// Whether a session whose media filter is `filter` may show `asset` (see ``isVisible(_:in:)``).
    static func isVisible(_ asset: Asset, filter: MediaFilter) -> Bool {
        filter.includes(asset.mediaType) && !asset.isHidden
    }

    /// The assets with `uuids` as the library holds them now, in the same order, without those
    /// deleted or hidden since: what a client may still receive of its picks.
    func stillPickable(_ uuids: [UUID]) async throws -> [Asset] {
        guard !uuids.isEmpty else { return [] }
        let lookup = try await library.assets(withIdentifiers: uuids.map { .local(LocalIdentifier(uuid: $0)) })
        let current = Dictionary(lookup.found.map { ($0.id.uuid, $0) }, uniquingKeysWith: { first, _ in first })
        return uuids.compactMap { current[$0] }.filter { !$0.isHidden }
    }

    /// The URI a person opens to pick for `session`, on the server's own address (never one a
    /// request named).
    func pickerURI(for session: PickerSession) -> String {
        "\(baseURL)/picker/\(session.id)/\(session.pickerToken)/"
    }

    /// Where people reach the server: the public base URL when one is set, else the address it
    /// listens on (loopback for a server listening on every address).
    var baseURL: String {
        if let base = configuration.publicBaseURL?.absoluteString {
            return base.hasSuffix("/") ? String(base.dropLast()) : base
        }
        let host = ["0.0.0.0", "::"].contains(configuration.host) ? "127.0.0.1" : configuration.host
        return "http://\(boundAddress.hostAndPort(fallbackHost: host))"
    }

    /// The name of the person's cookie on this server (its port in it, as browsers send a host's
    /// cookies to each of its ports): the public URL's port when one is set, so that every
    /// server behind one address reads the cookie any of them set, else the port it listens on.
    var personCookieName: String {
        if let url = configuration.publicBaseURL { return PersonCookie.name(port: url.port ?? (url.scheme == "https" ? 443 : 80)) }
        return PersonCookie.name(port: boundAddress.boundPort ?? configuration.port)
    }

    /// The one access decision (``AccessGate``) of this server.
    var access: AccessGate {
        AccessGate(clientKey: configuration.clientKey, signIn: signIn,
                   origins: SameOrigin(baseURL: { [self] in baseURL }, port: { [boundAddress] in boundAddress.boundPort }))
    }
}
