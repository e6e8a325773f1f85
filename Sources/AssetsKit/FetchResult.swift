/// Where a ``FetchResult`` gets its assets: a library's cursor over a query.
public protocol FetchResultSource: Sendable {
    /// How many assets the query matches (after offset and limit).
    var count: Int { get }
    /// The assets at `range` (positions within the result), in the result's order; fewer than
    /// the range's positions when some were found gone since the count was taken.
    func assets(in range: Range<Int>) async throws -> [Asset]
}

/// The assets of a fetch: a count and access by position, loaded a window at a time.
///
/// A fetch result never holds the whole library: iterating it loads ``pageSize`` assets at a
/// time, and ``asset(at:)`` loads one.
public struct FetchResult: Sendable, AsyncSequence {
    /// Iteration yields assets, in the result's order.
    public typealias Element = Asset

    private let source: any FetchResultSource
    /// How many assets iteration loads at a time.
    public var pageSize: Int

    /// A result over a library's cursor, iterated `pageSize` assets at a time (at least 1).
    public init(source: any FetchResultSource, pageSize: Int = 200) {
        self.source = source
        self.pageSize = Swift.max(1, pageSize)
    }

    /// A result over assets already at hand (a lookup by identifiers, a scan).
    public init<Assets: Collection & Sendable>(assets: Assets) where Assets.Element == Asset {
        self.init(source: LoadedAssets(assets: Array(assets)))
    }

    /// The number of assets in the result.
    public var count: Int { source.count }

    /// Whether the result has no assets.
    public var isEmpty: Bool { count == 0 }

    /// The asset at `index`.
    public func asset(at index: Int) async throws -> Asset {
        guard (0..<count).contains(index) else { throw LibraryError.indexOutOfRange(index: index, count: count) }
        guard let asset = try await source.assets(in: index..<(index + 1)).first else {
            throw LibraryError.indexOutOfRange(index: index, count: count)
        }
        return asset
    }

    /// The assets at `range`, clamped to the result.
    public func assets(in range: Range<Int>) async throws -> [Asset] {
        let clamped = range.clamped(to: 0..<count)
        return clamped.isEmpty ? [] : try await source.assets(in: clamped)
    }

    /// The first asset, if any.
    public func first() async throws -> Asset? {
        isEmpty ? nil : try await asset(at: 0)
    }

    /// An iterator from the first asset, loading a page at a time.
    public func makeAsyncIterator() -> Iterator {
        Iterator(result: self)
    }

    /// Loads one page at a time.
    public struct Iterator: AsyncIteratorProtocol {
        let result: FetchResult
        var buffer: [Asset] = []
        var bufferIndex = 0
        var nextPosition = 0

        /// The next asset, loading the next page when the last one is used up; `nil` at the end.
        public mutating func next() async throws -> Asset? {
            // A window may hold fewer assets than positions (a source that finds some gone): an
            // empty one is passed over, not taken for the end.
            while bufferIndex == buffer.count {
                guard nextPosition < result.count else { return nil }
                let end = Swift.min(result.count, nextPosition + result.pageSize)
                buffer = try await result.assets(in: nextPosition..<end)
                bufferIndex = 0
                nextPosition = end
            }
            defer { bufferIndex += 1 }
            return buffer[bufferIndex]
        }
    }
}

/// A fetch result source over assets already loaded.
private struct LoadedAssets: FetchResultSource {
    let assets: [Asset]

    var count: Int { assets.count }

    func assets(in range: Range<Int>) async throws -> [Asset] {
        Array(assets[range])
    }
}
