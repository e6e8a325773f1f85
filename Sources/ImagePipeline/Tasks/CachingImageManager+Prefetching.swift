import AssetsKit

extension CachingImageManager {
    /// Starts rendering `sources` for `request` into the caches, at prefetch priority: for
    /// the grid rows about to scroll into view. Already cached or already prefetching ones are
    /// skipped; visible requests always go first.
    public func startCaching(_ sources: [ImageSourceFile], request: ImageRequest) {
        var request = request
        request.priority = .prefetch
        for source in sources {
            let request = request.bounded(byOriginal: source.pixelSize)
            let key = RenditionKey(source: source.version, request: request)
            guard memoryCache.image(for: key) == nil else { continue }
            prefetches.withLock { running in
                guard running[key] == nil else { return }
                running[key] = Task { [self] in
                    _ = try? await rendition(key, of: source, for: request, priority: .prefetch)
                    _ = prefetches.withLock { $0.removeValue(forKey: key) }
                }
            }
        }
    }

    /// Stops prefetching `sources` for `request` (what has been rendered stays cached).
    public func stopCaching(_ sources: [ImageSourceFile], request: ImageRequest) {
        let keys = sources.map { RenditionKey($0, request) }
        let stopped = prefetches.withLock { running in keys.compactMap { running.removeValue(forKey: $0) } }
        for task in stopped { task.cancel() }
    }

    /// Stops all prefetching.
    public func stopCachingAll() {
        let stopped = prefetches.withLock { running in
            defer { running.removeAll() }
            return Array(running.values)
        }
        for task in stopped { task.cancel() }
    }

    /// How many prefetch renders are queued or running.
    public var prefetchCount: Int { prefetches.withLock { $0.count } }
}
