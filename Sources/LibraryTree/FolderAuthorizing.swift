import AssetsKit

/// A library whose authorization is the access its storage grants (its folder, or a bucket):
/// it holds a ``FolderAuthorization`` and gets ``AssetsKit/PhotoLibrary/authorizationStatus()`` and
/// ``AssetsKit/PhotoLibrary/requestAuthorization()`` from it, written once here for every
/// backend over a folder.
public protocol FolderAuthorizing: PhotoLibrary {
    /// The folder's authorization, kept for the library's life.
    var folderAuthorization: FolderAuthorization { get }
}

extension FolderAuthorizing {
    /// The status found by the last ``requestAuthorization()``, or `notDetermined` before it.
    public func authorizationStatus() async -> AuthorizationStatus {
        folderAuthorization.current
    }

    /// Tries the storage's access (a folder: reading it, then whether it may be written) and
    /// keeps the answer.
    public func requestAuthorization() async -> AuthorizationStatus {
        await folderAuthorization.request()
    }
}
