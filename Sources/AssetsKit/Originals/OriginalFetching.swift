/// Brings originals kept elsewhere (in a bucket) to their local place when they are asked for:
/// the role of PhotoKit's `isNetworkAccessAllowed` with its progress handler.
///
/// A library whose originals are all on this machine has none. One whose originals may be
/// elsewhere gives the image pipeline one with each original's place
/// (`ImageSourceFile.fetcher`), and reads its originals through it: a request that allows
/// network access waits for the transfer, with progress; one that does not gets
/// ``LibraryError/networkAccessRequired(file:)`` (after the degraded image, when there is one).
/// Adopters are classes: a fetcher is one shared place, and the pipeline tells two apart by
/// identity.
public protocol OriginalFetching: AnyObject, Sendable {
    /// Whether the original `location` names is at its local place now, of the version it names:
    /// reading it will not wait for the network.
    func isLocal(_ location: OriginalLocation) -> Bool

    /// Brings the original to its local place, telling `progress` the bytes received of the
    /// total as they arrive. Every caller asking for one original at once shares one transfer;
    /// cancelling a caller stops its wait, and the transfer when no other caller waits.
    /// - Throws: ``LibraryError/originalUnavailable(file:)`` when the original is gone or changed
    ///   where it is kept; ``LibraryError/unreadableFile(path:reason:)`` when it cannot be reached
    ///   (with the reason); `CancellationError` when cancelled.
    func fetch(_ location: OriginalLocation, progress: (@Sendable (TransferProgress) -> Void)?) async throws

    /// The file the transfer of `location` under way is writing, in order from the original's
    /// first byte, opened for reading, so that a caller of ``fetch(_:progress:)`` can pass the
    /// bytes on as they come; `nil` when no transfer of it is under way (not started, or over).
    /// Once the transfer succeeds the file holds the whole original (the same file, put in its
    /// local place); when it fails, what was read of it is not to be trusted.
    func arrivingFile(_ location: OriginalLocation) -> ArrivingFile?

    /// Reads the original once for work the person did not ask for (a preview made in the
    /// background): `read` gets the place of a copy of it, and the copy is not kept afterwards —
    /// not installed at the original's local place, not counted as a use, so what the person
    /// opened stays, and an original nobody opened stays where it is kept. When the original is
    /// local already, `read` gets its local place.
    /// - Throws: What ``fetch(_:progress:)`` throws, or what `read` throws.
    func readWithoutKeeping<T: Sendable>(_ location: OriginalLocation,
                                         _ read: @Sendable (OriginalLocation) async throws -> T) async throws -> T
}

extension OriginalFetching {
    /// The default: fetches it to its local place (kept), then reads it there.
    public func readWithoutKeeping<T: Sendable>(_ location: OriginalLocation,
                                                _ read: @Sendable (OriginalLocation) async throws -> T) async throws -> T {
        if !isLocal(location) { try await fetch(location, progress: nil) }
        return try await read(location)
    }
}

/// How far a transfer of an original is: bytes received of the total.
public struct TransferProgress: Sendable, Hashable {
    /// Bytes received so far.
    public var received: Int64
    /// The original's size in bytes.
    public var total: Int64

    /// Progress of `received` bytes of `total`.
    public init(received: Int64, total: Int64) {
        self.received = received
        self.total = total
    }

    /// The part done, from 0 to 1 (1 for an empty original).
    public var fraction: Double {
        total <= 0 ? 1 : min(1, Double(received) / Double(total))
    }
}
