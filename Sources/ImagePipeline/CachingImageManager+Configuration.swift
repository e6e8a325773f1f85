import Foundation

/// Budgets and limits of a ``CachingImageManager``.
public struct ImageManagerConfiguration: Sendable {
    /// Encoded bytes the memory cache may hold.
    public var memoryCacheBytes: Int
    /// Where rendered images are kept across runs; `nil` for no disk cache.
    public var diskCacheDirectory: URL?
    /// Bytes the disk cache may take.
    public var diskCacheBytes: Int64
    /// Renders running at once (default: one per core).
    public var maxConcurrentRenders: Int

    public init(memoryCacheBytes: Int = 64 << 20, diskCacheDirectory: URL? = nil, diskCacheBytes: Int64 = 512 << 20,
                maxConcurrentRenders: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.memoryCacheBytes = memoryCacheBytes
        self.diskCacheDirectory = diskCacheDirectory
        self.diskCacheBytes = diskCacheBytes
        self.maxConcurrentRenders = maxConcurrentRenders
    }
}
