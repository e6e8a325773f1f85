import AssetsKit
import Synchronization

/// A byte-bounded, least-recently-used memory cache of rendered images.
///
/// The budget counts encoded bytes and is never exceeded: storing evicts the least recently
/// used images first, and an image larger than the whole budget is not kept.
public final class MemoryImageCache: ImageCaching {
    /// The most encoded bytes the cache holds.
    public let byteLimit: Int
    private let state: Mutex<LRUState>

    public init(byteLimit: Int) {
        self.byteLimit = max(0, byteLimit)
        self.state = Mutex(LRUState())
    }

    public func image(for key: RenditionKey) -> ImageResult? {
        state.withLock { $0.touch(key)?.image }
    }

    public func store(_ image: ImageResult, for key: RenditionKey) {
        let cost = image.data.count
        guard cost <= byteLimit else { return }
        state.withLock { state in
            state.insert(image, for: key, cost: cost)
            while state.totalBytes > byteLimit, state.evictOldest() {}
        }
    }

    public func removeAll() {
        state.withLock { $0 = LRUState() }
    }

    /// The encoded bytes held now.
    public var totalBytes: Int { state.withLock { $0.totalBytes } }

    /// The largest cached rendition of `source` with fewer pixels than `target`: a quick
    /// degraded answer while the requested one is made.
    public func largestRendition(of source: SourceVersion, smallerThan target: PixelSize) -> ImageResult? {
        state.withLock { state in
            state.keys(of: source)
                .compactMap { state.peek($0)?.image }
                .filter { $0.pixelSize.area < target.area }
                .max { $0.pixelSize.area < $1.pixelSize.area }
        }
    }
}

/// A doubly linked list in recency order plus an index, guarded by the cache's lock.
private struct LRUState: ~Copyable {
    final class Node {
        let key: RenditionKey
        let image: ImageResult
        let cost: Int
        var newer: Node?
        weak var older: Node?

        init(key: RenditionKey, image: ImageResult, cost: Int) {
            self.key = key
            self.image = image
            self.cost = cost
        }
    }

    private var nodes: [RenditionKey: Node] = [:]
    private var keysBySource: [SourceVersion: Set<RenditionKey>] = [:]
    private var newest: Node?
    private var oldest: Node?
    private(set) var totalBytes = 0

    func peek(_ key: RenditionKey) -> Node? { nodes[key] }

    func keys(of source: SourceVersion) -> Set<RenditionKey> { keysBySource[source] ?? [] }

    mutating func touch(_ key: RenditionKey) -> Node? {
        guard let node = nodes[key] else { return nil }
        unlink(node)
        linkAsNewest(node)
        return node
    }

    mutating func insert(_ image: ImageResult, for key: RenditionKey, cost: Int) {
        if let existing = nodes[key] { remove(existing) }
        let node = Node(key: key, image: image, cost: cost)
        nodes[key] = node
        keysBySource[key.source, default: []].insert(key)
        totalBytes += cost
        linkAsNewest(node)
    }

    /// Removes the least recently used image; `false` when empty.
    mutating func evictOldest() -> Bool {
        guard let node = oldest else { return false }
        remove(node)
        return true
    }

    private mutating func remove(_ node: Node) {
        unlink(node)
        nodes[node.key] = nil
        keysBySource[node.key.source]?.remove(node.key)
        if keysBySource[node.key.source]?.isEmpty == true { keysBySource[node.key.source] = nil }
        totalBytes -= node.cost
    }

    private mutating func unlink(_ node: Node) {
        let older = node.older, newer = node.newer
        older?.newer = newer
        newer?.older = older
        if newest === node { newest = older }
        if oldest === node { oldest = newer }
        node.newer = nil
        node.older = nil
    }

    private mutating func linkAsNewest(_ node: Node) {
        node.older = newest
        newest?.newer = node
        newest = node
        if oldest == nil { oldest = node }
    }
}
