import AssetsKit
import Foundation
import Synchronization

/// A folder library's authorization: the access its folder granted when last asked
/// (``FolderAccess/probe(_:)``), `notDetermined` until then.
///
/// A library over a folder keeps one for its life and adopts ``FolderAuthorizing``, which
/// answers ``AssetsKit/PhotoLibrary/authorizationStatus()`` and
/// ``AssetsKit/PhotoLibrary/requestAuthorization()`` from it.
public final class FolderAuthorization: Sendable {
    private let root: URL
    private let status = Mutex<AuthorizationStatus>(.notDetermined)

    /// The authorization of the library folder `root`, not yet asked for.
    package init(root: URL) {
        self.root = root
    }

    /// The status found by the last ``request()``, or `notDetermined` before the first.
    public var current: AuthorizationStatus {
        status.withLock { $0 }
    }

    /// Tries the folder's access again and keeps what it found.
    public func request() -> AuthorizationStatus {
        let found = FolderAccess.probe(root)
        status.withLock { $0 = found }
        return found
    }
}
