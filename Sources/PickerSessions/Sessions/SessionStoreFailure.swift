/// A session store could not answer: its database is unreachable or refused the statement.
///
/// Never an answer about a session (unknown, ended): a request that meets it can be tried again
/// later. ``reason`` names the store's own trouble, for the server's log, not for a client.
public struct SessionStoreFailure: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as the store's database said it.
    public let reason: String

    /// A failure for `reason`.
    public init(reason: String) {
        self.reason = reason
    }

    public var description: String { "The picker sessions cannot be read now: \(reason)" }
}
