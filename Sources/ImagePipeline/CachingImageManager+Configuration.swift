import Foundation

/// Budgets and limits of a ``CachingImageManager``.
public struct ImageManagerConfiguration: Sendable {
    /// Encoded bytes the memory cache may hold.
    public var memoryCacheBytes: Int
    /// Renders running at once (default: one per core).
    public var maxConcurrentRenders: Int
    /// Pixels of originals being rendered at once (default: ``RenderPixelBudget/forThisMachine``);
    /// a render of a larger original runs alone.
    public var maxConcurrentDecodePixels: Int

    public init(memoryCacheBytes: Int = 64 << 20, maxConcurrentRenders: Int = ProcessInfo.processInfo.activeProcessorCount,
                maxConcurrentDecodePixels: Int = RenderPixelBudget.forThisMachine) {
        self.memoryCacheBytes = memoryCacheBytes
        self.maxConcurrentRenders = maxConcurrentRenders
        self.maxConcurrentDecodePixels = maxConcurrentDecodePixels
    }
}
