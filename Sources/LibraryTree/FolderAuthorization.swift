import AssetsKit
import Foundation
import Synchronization

/// A library's authorization: the access its storage granted when last asked, `notDetermined`
/// until then, found by really trying.
///
/// Over a folder the try is ``FolderAccess/probe(_:)`` (read the folder, then ask whether it may
/// be written); a library whose originals are kept elsewhere gives its own try (over a bucket, a
/// listing). A library keeps one for its life and adopts ``FolderAuthorizing``, which answers
/// ``AssetsKit/PhotoLibrary/authorizationStatus()`` and
/// ``AssetsKit/PhotoLibrary/requestAuthorization()`` from it.
public final class FolderAuthorization: Sendable {
    /// What one try found: the status, and why when it is `denied`.
    package typealias Finding = (status: AuthorizationStatus, reason: String?)

    private let probe: @Sendable () async -> Finding
    private let found = Mutex<Finding>((.notDetermined, nil))

    /// The authorization of the library folder `root`, not yet asked for.
    package convenience init(root: URL) {
        self.init { FolderAccess.finding(root) }
    }

    /// An authorization found by `probe`, not yet asked for: for a library whose originals are
    /// not a folder of this machine.
    package init(probe: @escaping @Sendable () async -> Finding) {
        self.probe = probe
    }

    /// The status found by the last ``request()``, or `notDetermined` before the first.
    public var current: AuthorizationStatus {
        found.withLock { $0.status }
    }

    /// Why the last ``request()`` found the library `denied` (one line); `nil` otherwise.
    public var denialReason: String? {
        found.withLock { $0.reason }
    }

    /// Tries the storage's access again and keeps what it found.
    public func request() async -> AuthorizationStatus {
        let finding = await probe()
        found.withLock { $0 = finding }
        return finding.status
    }
}
