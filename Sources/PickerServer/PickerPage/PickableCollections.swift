import AssetsKit
import Synchronization

/// Which collections the person may open: every one but the library's trash (Recently Deleted),
/// which holds what the person threw away. Each collection says whether it is the trash
/// (``AssetCollection/isTrash``); nothing here reads an identifier's spelling.
///
/// The album list leaves the trash out of what it lists. A window of a collection is asked for
/// by identifier alone, so its check needs the trash's identifiers: those of the last album
/// list, or of the library's collection list when none was made since the library last changed
/// (the page lists the albums before it asks for a window, so that read is rare).
final class PickableCollections: Sendable {
    private struct Known {
        /// The trash's identifiers, as of `generation`; `nil` when not read since the last change.
        var trash: Set<CollectionIdentifier>?
        /// Moves at every change of the library: what was read before it is not kept.
        var generation = 0
    }

    private let known = Mutex(Known())

    /// The library's album list under `filter` (see ``PhotoLibrary/albumSummaries(filter:)``)
    /// without the trash.
    func albums(of library: any PhotoLibrary, filter: MediaFilter) async throws -> [AlbumSummary] {
        let generation = known.withLock { $0.generation }
        let summaries = try await library.albumSummaries(filter: filter)
        remember(summaries.map(\.collection), readAt: generation)
        return summaries.filter { !$0.collection.isTrash }
    }

    /// Whether the person may open the collection `id` names: `false` for the trash. An
    /// identifier the library does not know passes: the library answers it as unknown.
    func mayOpen(_ id: CollectionIdentifier, in library: any PhotoLibrary) async throws -> Bool {
        let (trash, generation) = known.withLock { ($0.trash, $0.generation) }
        if let trash { return !trash.contains(id) }
        let collections = try await library.collections()
        return !remember(collections, readAt: generation).contains(id)
    }

    /// The library changed: its trash is read again when next needed.
    func forgetAll() {
        known.withLock { known in
            known.trash = nil
            known.generation += 1
        }
    }

    /// The trash's identifiers among `collections`, the library's whole list as read since
    /// `generation`, kept unless the library changed meanwhile.
    @discardableResult
    private func remember(_ collections: [AssetCollection], readAt generation: Int) -> Set<CollectionIdentifier> {
        let trash = Set(collections.lazy.filter(\.isTrash).map(\.id))
        known.withLock { known in
            if known.generation == generation { known.trash = trash }
        }
        return trash
    }
}
