import Foundation
import PickerSessions

/// How a picker server listens and treats its clients.
public struct PickerServerConfiguration: Sendable {
    /// The address to bind: loopback unless told otherwise.
    public var host: String
    /// The port to bind; 0 picks a free one.
    public var port: Int
    /// The key client programs send as `Authorization: Bearer <key>`.
    public var clientKey: String
    /// How long a picker session lives.
    public var sessionLifetime: Duration
    /// Seconds a client should wait between polls of a session.
    public var pollInterval: Double
    /// The URL people reach the server at, when it differs from the address it listens on (a
    /// proxy in front); `nil`: the address it listens on. Never taken from a request's `Host`.
    public var publicBaseURL: URL?
    /// Timeouts and caps for connections and uploads.
    public var limits = PickerServerLimits()

    /// A configuration; the client key defaults to a new random one.
    public init(host: String = "127.0.0.1", port: Int = 8080, clientKey: String = SecretToken.make(byteCount: 24),
                sessionLifetime: Duration = .seconds(3_600), pollInterval: Double = 2, publicBaseURL: URL? = nil) {
        self.host = host
        self.port = port
        self.clientKey = clientKey
        self.sessionLifetime = sessionLifetime
        self.pollInterval = pollInterval
        self.publicBaseURL = publicBaseURL
    }
}
