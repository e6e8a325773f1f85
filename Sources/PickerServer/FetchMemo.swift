import AssetsKit
import Synchronization

/// The fetch results the picker page pages through, kept between its requests so that
/// consecutive windows continue where the last one ended (keyset paging in an indexed
/// library) instead of starting a new query. Bounded; emptied whenever the library changes.
final class FetchMemo: Sendable {
    private struct Key: Hashable {
        let collection: CollectionIdentifier
        let filter: MediaFilter
        let sort: DateOrder
    }

    private let library: any PhotoLibrary
    private let limit: Int
    private let results = Mutex<[Key: FetchResult]>([:])

    init(library: any PhotoLibrary, limit: Int = 64) {
        self.library = library
        self.limit = limit
    }

    /// The assets of `collection` that pass `filter`, in `sort` order.
    /// - Throws: What the library threw, e.g. ``LibraryError/collectionNotFound(_:)``.
    func result(in collection: CollectionIdentifier, filter: MediaFilter, sort: DateOrder) async throws -> FetchResult {
        let key = Key(collection: collection, filter: filter, sort: sort)
        if let result = results.withLock({ $0[key] }) { return result }
        let result = try await library.assets(in: collection, options: FetchOptions(mediaFilter: filter, sortOrder: sort))
        results.withLock { results in
            if results.count >= limit { results.removeAll(keepingCapacity: true) }
            results[key] = result
        }
        return result
    }

    func forgetAll() {
        results.withLock { $0.removeAll(keepingCapacity: true) }
    }
}
