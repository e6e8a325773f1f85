import Foundation
import HTTPTypes
import Hummingbird

/// The address of the client whose request is being answered (`127.0.0.1`, `::1`, …), for limits
/// kept per address: the connection's peer, set for each connection's requests
/// (``PickerHTTPChannel``), or behind a trusted proxy the address it forwarded the request for
/// (``forwarded(_:trusting:)``).
enum ClientAddress {
    @TaskLocal static var current = "unknown"

    /// The `X-Real-IP` header, which a proxy in front sets to the address of its client.
    static let realIP = HTTPField.Name("X-Real-IP")!

    /// The client's address for `request`: when the connection's peer is one of `proxies`, the
    /// address it put in `X-Real-IP` (nginx: `proxy_set_header X-Real-IP $remote_addr`, which
    /// replaces whatever the client sent), written as a peer is (``PickerServerLimits/ipAddress(_:)``);
    /// else, or when that header is missing, repeated or not an IPv4 or IPv6 address, the peer's.
    static func forwarded(_ request: Request, trusting proxies: Set<String>) -> String {
        let peer = current
        guard proxies.contains(peer) else { return peer }
        let values = request.headers[values: realIP]
        guard values.count == 1, let client = values.first.flatMap(PickerServerLimits.ipAddress) else { return peer }
        return client
    }
}
