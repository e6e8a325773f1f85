/// A library whose originals may be kept elsewhere (in a bucket: the role of iCloud Photos with
/// "Optimize Storage"): everything is browsable from what is kept on this machine (the index,
/// previews), and an original is fetched when it is asked for with network access
/// (``PhotoLibrary/originalFile(for:request:)``, `ImageRequest.isNetworkAccessAllowed`). Ask a
/// library for it through ``PhotoLibrary/remoteOriginals``.
public protocol RemoteOriginals: Sendable {
    /// Those of `assets` whose original is on this machine now: reading it waits for no network.
    /// The others carry a cloud badge in a picker.
    func localOriginals(of assets: [Asset]) async throws -> Set<AssetIdentifier>

    /// The original of `asset` passed on as it comes from where it is kept (asking is the ask
    /// for network access), sharing the transfer with every other caller of it; `nil` when it is
    /// on this machine already (read it with ``PhotoLibrary/originalFile(for:request:)``).
    /// Returns once its first bytes have come, so that a failure to start is thrown here.
    /// - Throws: What ``PhotoLibrary/originalFile(for:request:)`` throws when the transfer fails
    ///   before its first bytes.
    func arrivingOriginal(of asset: Asset) async throws -> ArrivingOriginal?
}
