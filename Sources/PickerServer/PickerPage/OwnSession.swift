import Synchronization

/// The picker session the server made for itself (``PickerServer/makeOwnSession()``: the one
/// `serve` opens through its first sign-in link), whose picks the person may see as its client
/// receives them (``ClientViewRoutes``). No other session is ever shown that way: a client
/// program's sessions stay between it and the person's picking.
final class OwnSession: Sendable {
    private let id = Mutex<String?>(nil)

    /// Marks `sessionID` as the server's own.
    func set(_ sessionID: String) {
        id.withLock { $0 = sessionID }
    }

    /// Whether `sessionID` is the server's own session.
    func isOwn(_ sessionID: String) -> Bool {
        id.withLock { $0 == sessionID }
    }
}
