/// A library whose originals may be kept elsewhere (in a bucket: the role of iCloud Photos with
/// "Optimize Storage"): everything is browsable from what is kept on this machine (the index,
/// previews), and an original is fetched when it is asked for with network access
/// (``PhotoLibrary/originalFile(for:request:)``, `ImageRequest.isNetworkAccessAllowed`). Ask a
/// library for it through ``PhotoLibrary/remoteOriginals``.
public protocol RemoteOriginals: Sendable {
    /// Those of `assets` whose original is on this machine now: reading it waits for no network.
    /// The others carry a cloud badge in a picker.
    func localOriginals(of assets: [Asset]) async throws -> Set<AssetIdentifier>
}
