import AssetsKit
import Foundation
import S3Storage

/// Originals brought from the bucket when asked for: PhotoKit's `isNetworkAccessAllowed` with its
/// progress handler, over ``SharedDownloads`` and ``OriginalsCache``.
extension BucketOriginalsStore {
    /// Whether the original is in the cache, of the version `location` names: one `stat`. A yes
    /// counts as a use of it, for the eviction order.
    package func isLocal(_ location: OriginalLocation) -> Bool {
        cache.isLocal(location)
    }

    /// Streams the original into the cache (`.partial/`, then renamed into place with the
    /// index's modification time), checks that the object is still the version the index knows
    /// (its size, and its time of change to the second an HTTP date gives), then evicts the
    /// originals used least recently beyond the budget. One transfer for every caller of one
    /// original; a dropped connection is resumed by `Range` (the client's); cancelled when no
    /// caller waits.
    /// - Throws: `LibraryError.originalUnavailable(file:)` when the object is gone or another
    ///   version; `LibraryError.unreadableFile(path:reason:)` naming the file and why the bucket
    ///   could not give it (unreachable, refused); `CancellationError`.
    package func fetch(_ location: OriginalLocation, progress: (@Sendable (TransferProgress) -> Void)?) async throws {
        let key = SharedDownloads.Key(path: location.relativePath, byteSize: location.byteSize, modificationTime: location.modificationTime)
        try await downloads.fetch(key, progress: progress) { [self] report in
            guard !cache.isLocal(location) else { return }
            try await transfer(location, report: report)
        }
    }

    /// The partial file the transfer of `location` under way writes, open for reading; `nil`
    /// when none is under way. Installed, it is the cached original itself (renamed, not copied).
    package func arrivingFile(_ location: OriginalLocation) -> ArrivingFile? {
        guard let partial = arriving.withLock({ $0[location.relativePath] }) else { return nil }
        return ArrivingFile(path: partial.path)
    }

    /// One transfer of the original into the cache.
    private func transfer(_ location: OriginalLocation, report: @escaping @Sendable (TransferProgress) -> Void) async throws {
        let partial = try cache.newPartialFile()
        arriving.withLock { $0[location.relativePath] = partial }
        defer {
            arriving.withLock { if $0[location.relativePath] == partial { $0[location.relativePath] = nil } }
            unlink(partial.path)
            cache.finished(partial)
        }
        let object: S3Object
        do {
            object = try await client.download(bucket: self.location.bucket, key: key(of: location.relativePath), eTag: nil, to: partial) {
                report(TransferProgress(received: $0.received, total: $0.total))
            }
        } catch is CancellationError {
            throw CancellationError()
        } catch S3Error.noSuchKey, S3Error.changed {
            throw LibraryError.originalUnavailable(file: location.filename)
        } catch {
            throw LibraryError.unreadableFile(path: location.filename,
                                              reason: "cannot fetch \(place(of: location.relativePath)): \(BucketUnavailable.reason(error))")
        }
        let seconds = Int64(object.lastModified.timeIntervalSince1970.rounded(.down))
        guard object.byteSize == location.byteSize, seconds == location.modificationTime / 1_000_000_000 else {
            throw LibraryError.originalUnavailable(file: location.filename)
        }
        try cache.install(partial, as: location)
        cache.evict(keeping: location.relativePath)
    }
}
