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

    /// Reads the original once without keeping it (a background preview): from the cache when it
    /// is there (not noted as a use), else from a copy in `.partial/` (never counted in the
    /// budget), removed once `read` returns.
    package func readWithoutKeeping<T: Sendable>(_ location: OriginalLocation,
                                                 _ read: @Sendable (OriginalLocation) async throws -> T) async throws -> T {
        if cache.isLocal(location, notingUse: false) { return try await read(location) }
        let folder = try cache.newPartialFile()
        defer {
            try? FileManager.default.removeItem(at: folder)
            cache.finished(folder)
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: OriginalsCache.folderAttributes)
        let copy = OriginalLocation(root: folder, relativePath: location.filename, byteSize: location.byteSize,
                                    modificationTime: location.modificationTime)
        let file = folder.appendingPathComponent(location.filename)
        try await download(location, to: file, report: nil)
        let seconds = location.modificationTime / 1_000_000_000, nanoseconds = location.modificationTime % 1_000_000_000
        var times = [timespec(tv_sec: Int(seconds), tv_nsec: Int(nanoseconds)), timespec(tv_sec: Int(seconds), tv_nsec: Int(nanoseconds))]
        guard utimensat(AT_FDCWD, file.path, &times, 0) == 0 else {
            throw LibraryError.unreadableFile(path: location.filename, reason: "the fetched original: cannot set its time")
        }
        return try await read(copy)
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
        try await download(location, to: partial, report: report)
        try cache.install(partial, as: location)
        cache.evict(keeping: location.relativePath)
    }

    /// Streams the original into `file`, no more than the size the index knows, and checks that
    /// the object is still the version the index knows.
    private func download(_ location: OriginalLocation, to file: URL, report: (@Sendable (TransferProgress) -> Void)?) async throws {
        let object: S3Object
        do {
            object = try await client.download(bucket: self.location.bucket, key: key(of: location.relativePath),
                                               eTag: location.fingerprint.flatMap(Self.entityTag(fromFingerprint:)),
                                               byteSize: location.byteSize, to: file) {
                report?(TransferProgress(received: $0.received, total: $0.total))
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
    }
}
