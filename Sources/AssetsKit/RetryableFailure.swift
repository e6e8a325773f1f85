/// An error of something the library or the server depends on — a database, most often — that
/// may pass by waiting: a server restarting, a network path down, connections exhausted. It
/// says nothing about the data (an asset is not missing, a session has not ended), so a server
/// answers it with `503 Service Unavailable` and `Retry-After`, never as "not found", and a
/// client tries again.
public protocol RetryableFailure: Error, CustomStringConvertible {
    /// How many seconds to wait before trying again; `nil` when waiting will not help (a wrong
    /// password, a missing database), which a server answers as its own failure.
    var retryAfterSeconds: Int? { get }
}
