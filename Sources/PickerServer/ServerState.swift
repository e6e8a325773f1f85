import AssetsKit
import Foundation
import Hummingbird
import Logging
import Picker

/// What every route of a running server shares: the library, the sessions, the media responder.
struct ServerState: Sendable {
    let configuration: PickerServerConfiguration
    let library: any PhotoLibrary
    let sessions: PickerSessionStore
    let media: MediaResponder
    let assets: AssetMemo
    let fetches: FetchMemo
    let logger: Logger
    /// The address the server is bound to, once it is.
    let boundAddress: BoundAddress
    /// Each session's prefetch in progress (a new one supersedes the last).
    let prefetches = PrefetchLedger()
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

    /// Whether the person picking in `session` may see `asset`: it passes the session's media
    /// filter and is not hidden.
    static func isVisible(_ asset: Asset, in session: PickerSession) -> Bool {
        session.settings.mediaFilter.includes(asset.mediaType) && !asset.isHidden
    }

    /// The URI a person opens to pick for `session`: on the public base URL when one is set,
    /// else on the host the client reached the server at.
    func pickerURI(for session: PickerSession, request: Request) -> String {
        "\(baseURL(for: request))/picker/\(session.id)/\(session.pickerToken)/"
    }

    private func baseURL(for request: Request) -> String {
        if let base = configuration.publicBaseURL?.absoluteString {
            return base.hasSuffix("/") ? String(base.dropLast()) : base
        }
        if let authority = request.head.authority, Self.isPlainAuthority(authority) {
            return "http://\(authority)"
        }
        return "http://\(boundAddress.hostAndPort(fallbackHost: configuration.host))"
    }

    /// Whether a Host header is a plain `host[:port]` (nothing that could bend the URI).
    private static func isPlainAuthority(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 255
            && text.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "-.:[]".unicodeScalars.contains($0) }
    }
}
