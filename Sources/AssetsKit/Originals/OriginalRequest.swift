/// How an original file is asked for (``PhotoLibrary/originalFile(for:request:)``): whether it
/// may be fetched over the network when it is kept elsewhere, and who hears of the transfer.
public struct OriginalRequest: Sendable {
    /// Whether an original kept elsewhere (a bucket) may be fetched. Without it, such an
    /// original not yet on this machine is ``LibraryError/networkAccessRequired(file:)``.
    public var isNetworkAccessAllowed: Bool
    /// Told the bytes received of the total while the original is fetched; not called for
    /// one already on this machine.
    public var progress: (@Sendable (TransferProgress) -> Void)?

    /// A request that may (by default) fetch the original, telling `progress` how far it is.
    public init(isNetworkAccessAllowed: Bool = true, progress: (@Sendable (TransferProgress) -> Void)? = nil) {
        self.isNetworkAccessAllowed = isNetworkAccessAllowed
        self.progress = progress
    }
}
