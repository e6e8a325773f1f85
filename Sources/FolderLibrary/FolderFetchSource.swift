import AssetsKit

/// The assets of one folder fetch, made only for the positions asked: the fetch counts its
/// files and fixes their order, and a window sorts only as far as it reaches (a short first
/// page of a large album is picked in one pass) and makes assets of its own files alone.
///
/// A fetch is a snapshot of the order when it was made. When it was provisional (see
/// ``FolderLibrary``, "Provisional answers"), a window reads its unread files as it is asked
/// for and leaves out those found unreadable (so it may hold fewer assets than its range); the
/// files read since, here or in the background, never move the others: positions and offsets
/// keep meaning what they meant in the first window. The exact order comes with the next fetch,
/// after the ``LibraryChange`` the background reads announce.
actor FolderFetchSource: FetchResultSource {
    nonisolated let count: Int
    private let library: FolderLibrary
    /// The snapshot as the fetch was made: the order is taken from it alone.
    private let ordering: FolderSnapshot
    /// The same, with the files windows have read since.
    private var snapshot: FolderSnapshot
    /// Where the items come from, when they are not given: made into `items` only when a window
    /// reaches too far for one pass to pick its items.
    private let source: (folders: [Int], filter: MediaFilter, includingUnread: Bool)?
    private var items: [FolderSnapshot.Item]?
    private let total: Int
    private let order: DateOrder
    private let offset: Int
    /// The first `sorted.count` items in `order`, as far as a window has reached.
    private var sorted: [FolderSnapshot.Item] = []

    /// The items from `offset`, at most `limit` of them (all when `nil`), in `order`.
    init(library: FolderLibrary, snapshot: FolderSnapshot, items: [FolderSnapshot.Item], order: DateOrder, offset: Int, limit: Int?) {
        self.init(library: library, snapshot: snapshot, items: items, source: nil, total: items.count, order: order, offset: offset, limit: limit)
    }

    /// The items ``FolderSnapshot/items(in:filter:includingUnread:)`` gives from `offset`, at most
    /// `limit` of them (all when `nil`), in `order`; a short first window is picked in one pass
    /// over the files, the list of them all made only when a window reaches further.
    init(library: FolderLibrary, snapshot: FolderSnapshot, folders: [Int], filter: MediaFilter, includingUnread: Bool, order: DateOrder,
         offset: Int, limit: Int?) {
        self.init(library: library, snapshot: snapshot, items: nil, source: (folders, filter, includingUnread),
                  total: snapshot.itemCount(in: folders, filter: filter, includingUnread: includingUnread), order: order, offset: offset, limit: limit)
    }

    private init(library: FolderLibrary, snapshot: FolderSnapshot, items: [FolderSnapshot.Item]?,
                 source: (folders: [Int], filter: MediaFilter, includingUnread: Bool)?, total: Int, order: DateOrder, offset: Int, limit: Int?) {
        self.library = library
        self.ordering = snapshot
        self.snapshot = snapshot
        self.items = items
        self.source = source
        self.total = total
        self.order = order
        self.offset = min(max(0, offset), total)
        let remaining = total - self.offset
        self.count = limit.map { min(remaining, max(0, $0)) } ?? remaining
    }

    func assets(in range: Range<Int>) async throws -> [Asset] {
        let range = range.clamped(to: 0..<count)
        guard !range.isEmpty else { return [] }
        library.background.callStarted()
        defer { library.background.callEnded() }
        let end = offset + range.upperBound
        if sorted.count < end {
            // Grows at least twice as far each time, so that iterating sorts in a few passes.
            let wanted = min(total, max(end, 2 * sorted.count))
            if items == nil, let source, wanted < total / 8 {
                sorted = ordering.first(wanted, in: source.folders, filter: source.filter, includingUnread: source.includingUnread, order: order)
            } else {
                let all = items ?? source.map { ordering.items(in: $0.folders, filter: $0.filter, includingUnread: $0.includingUnread) } ?? []
                items = all
                sorted = ordering.first(wanted, of: all, in: order)
            }
        }
        var window = Array(sorted[(offset + range.lowerBound)..<end])
        if window.contains(where: { snapshot.folders[$0.folder].files[$0.file].state == .unread }) {
            var reading = snapshot
            try await library.read(window, into: &reading)
            // Only this window's files are taken over: another window may have read others meanwhile.
            for item in window { snapshot.folders[item.folder].files[item.file] = reading.folders[item.folder].files[item.file] }
        }
        window.removeAll { snapshot.folders[$0.folder].files[$0.file].state != .readable }
        return await library.handOut(window.map { (snapshot.asset($0), snapshot.file($0)) })
    }
}
