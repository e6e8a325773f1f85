import AssetsKit
import Synchronization

/// The user albums and folders, and the directories, as an index store last read them for the
/// album list, each part with the change token it was read at, so that the list reads them again
/// only as far as the index changed (at 20,000 albums a whole read takes 35–85 ms, their key
/// assets a second):
///
/// - while the index's latest change token is still the part's, the part answers as kept;
/// - when changes were recorded since, they say which albums and directories they touched
///   (``AlbumListDelta``), and only those rows are read again and put in place;
/// - when they touched a part's structure (an album or folder made, renamed, moved or deleted;
///   a directory found or gone), an asset was purged, or there are too many of them, the part
///   is read whole.
///
/// Every change of the index — a scan, an import, an album edited, an asset hidden or deleted —
/// records a change and so moves the token; tokens are handed out in commit order (SQLite's one
/// writer, PostgreSQL's write lock), so a token read in the same snapshot as the albums names
/// exactly what was read. Per process: another server's change moves the token in the database,
/// which the next read sees.
///
/// The smart albums are not kept: Recently Added moves with the clock, and their counts and key
/// assets are a few index lookups.
package final class AlbumListMemo: Sendable {
    /// A part of the list and the change token it was read at.
    package struct Kept<Rows: Sendable>: Sendable {
        /// The token the rows were read (or brought up) to.
        package var token: Int64
        /// The rows, in the order the album list lists them.
        package var rows: Rows
    }

    /// The two runs of rows the memo keeps: the user albums and folders, and the directories.
    package enum Part: Hashable, Sendable {
        case albums
        case directories
    }

    private struct State {
        var collections: [Part: Kept<[AssetCollection]>] = [:]
        var summaries: [Part: [MediaFilter: Kept<[AlbumSummary]>]] = [:]
        /// The changes last read, from the token after `since` up to `token`: the two parts of one
        /// call usually ask for the same ones.
        var delta: (since: Int64, token: Int64, delta: AlbumListDelta?)?
    }

    private let state = Mutex(State())

    /// An empty memo.
    package init() {}

    /// The collections of `part` as last kept, with their token.
    package func collections(_ part: Part) -> Kept<[AssetCollection]>? {
        state.withLock { $0.collections[part] }
    }

    /// The album-list rows of `part` under `filter` as last kept, with their token.
    package func summaries(_ part: Part, _ filter: MediaFilter) -> Kept<[AlbumSummary]>? {
        state.withLock { $0.summaries[part]?[filter] }
    }

    /// Keeps the collections of `part`, read at `token`, unless some read at a later token are kept.
    package func keep(collections: [AssetCollection], _ part: Part, at token: Int64) {
        state.withLock { state in
            if let kept = state.collections[part]?.token, kept > token { return }
            state.collections[part] = Kept(token: token, rows: collections)
        }
    }

    /// Keeps the album-list rows of `part` under `filter`, read at `token`, unless rows read at
    /// a later token are kept.
    package func keep(summaries: [AlbumSummary], _ part: Part, filter: MediaFilter, at token: Int64) {
        state.withLock { state in
            if let kept = state.summaries[part]?[filter]?.token, kept > token { return }
            state.summaries[part, default: [:]][filter] = Kept(token: token, rows: summaries)
        }
    }

    /// The collections of `part` at the index's change `token`, kept for the next call: as kept
    /// when they were read at `token`; else brought up from the kept ones by `patched` with the
    /// changes recorded since (`changes(since:)`, read once for both parts), unless there are
    /// too many or `patched` answers `nil` (the part's structure changed); else read `whole()`.
    package func collections(_ part: Part, at token: Int64, changes: (_ since: Int64) throws -> AlbumListDelta?,
                             patched: ([AssetCollection], AlbumListDelta) throws -> [AssetCollection]?,
                             whole: () throws -> [AssetCollection]) rethrows -> [AssetCollection] {
        let kept = collections(part)
        if let kept, kept.token == token { return kept.rows }
        let rows = try upToDate(kept, at: token, changes: changes, patched: patched, whole: whole)
        keep(collections: rows, part, at: token)
        return rows
    }

    /// ``collections(_:at:changes:patched:whole:)`` read through an asynchronous session.
    package func collections(_ part: Part, at token: Int64, changes: (_ since: Int64) async throws -> AlbumListDelta?,
                             patched: ([AssetCollection], AlbumListDelta) async throws -> [AssetCollection]?,
                             whole: () async throws -> [AssetCollection]) async rethrows -> [AssetCollection] {
        let kept = collections(part)
        if let kept, kept.token == token { return kept.rows }
        let rows = try await upToDate(kept, at: token, changes: changes, patched: patched, whole: whole)
        keep(collections: rows, part, at: token)
        return rows
    }

    /// The album-list rows of `part` under `filter` at the index's change `token`, brought up
    /// and kept as ``collections(_:at:changes:patched:whole:)`` are.
    package func summaries(_ part: Part, _ filter: MediaFilter, at token: Int64, changes: (_ since: Int64) throws -> AlbumListDelta?,
                           patched: ([AlbumSummary], AlbumListDelta) throws -> [AlbumSummary]?,
                           whole: () throws -> [AlbumSummary]) rethrows -> [AlbumSummary] {
        let kept = summaries(part, filter)
        if let kept, kept.token == token { return kept.rows }
        let rows = try upToDate(kept, at: token, changes: changes, patched: patched, whole: whole)
        keep(summaries: rows, part, filter: filter, at: token)
        return rows
    }

    /// ``summaries(_:_:at:changes:patched:whole:)`` read through an asynchronous session.
    package func summaries(_ part: Part, _ filter: MediaFilter, at token: Int64, changes: (_ since: Int64) async throws -> AlbumListDelta?,
                           patched: ([AlbumSummary], AlbumListDelta) async throws -> [AlbumSummary]?,
                           whole: () async throws -> [AlbumSummary]) async rethrows -> [AlbumSummary] {
        let kept = summaries(part, filter)
        if let kept, kept.token == token { return kept.rows }
        let rows = try await upToDate(kept, at: token, changes: changes, patched: patched, whole: whole)
        keep(summaries: rows, part, filter: filter, at: token)
        return rows
    }

    private func upToDate<Rows>(_ kept: Kept<Rows>?, at token: Int64, changes: (Int64) throws -> AlbumListDelta?,
                                patched: (Rows, AlbumListDelta) throws -> Rows?, whole: () throws -> Rows) rethrows -> Rows {
        // Kept rows read at a later token (another call's) are not brought back.
        guard let kept, kept.token < token else { return try whole() }
        if let delta = try recordedChanges(since: kept.token, at: token, read: changes), let rows = try patched(kept.rows, delta) {
            return rows
        }
        return try whole()
    }

    private func upToDate<Rows>(_ kept: Kept<Rows>?, at token: Int64, changes: (Int64) async throws -> AlbumListDelta?,
                                patched: (Rows, AlbumListDelta) async throws -> Rows?, whole: () async throws -> Rows) async rethrows -> Rows {
        // Kept rows read at a later token (another call's) are not brought back.
        guard let kept, kept.token < token else { return try await whole() }
        if let delta = try await recordedChanges(since: kept.token, at: token, read: changes), let rows = try await patched(kept.rows, delta) {
            return rows
        }
        return try await whole()
    }

    /// The changes recorded after `since` up to `token`: the last ones read when they span the
    /// same tokens (what was recorded between two tokens never changes), else `read(since)`.
    private func recordedChanges(since: Int64, at token: Int64, read: (Int64) throws -> AlbumListDelta?) rethrows -> AlbumListDelta? {
        if let last = state.withLock({ $0.delta }), last.since == since, last.token == token { return last.delta }
        let delta = try read(since)
        state.withLock { $0.delta = (since, token, delta) }
        return delta
    }

    private func recordedChanges(since: Int64, at token: Int64, read: (Int64) async throws -> AlbumListDelta?) async rethrows -> AlbumListDelta? {
        if let last = state.withLock({ $0.delta }), last.since == since, last.token == token { return last.delta }
        let delta = try await read(since)
        state.withLock { $0.delta = (since, token, delta) }
        return delta
    }

    /// `albums` with the counts of the albums in `counts` replaced (an album missing from
    /// `counts` among `touched` has no visible member left).
    package static func patch(_ albums: [AssetCollection], touched: Set<CollectionIdentifier>,
                              counts: [CollectionIdentifier: Int]) -> [AssetCollection] {
        guard !touched.isEmpty else { return albums }
        var albums = albums
        for index in albums.indices where albums[index].kind == .album && touched.contains(albums[index].id) {
            albums[index].estimatedAssetCount = counts[albums[index].id] ?? 0
        }
        return albums
    }

    /// `summaries` with each album in `touched` given its count of all members from `totals`, and
    /// its count and key asset under the filter from `fresh` (missing from either: no member
    /// there).
    package static func patch(_ summaries: [AlbumSummary], touched: Set<CollectionIdentifier>, totals: [CollectionIdentifier: Int],
                              fresh: [CollectionIdentifier: (count: Int, keyAsset: Asset?)]) -> [AlbumSummary] {
        guard !touched.isEmpty else { return summaries }
        var summaries = summaries
        for index in summaries.indices where summaries[index].collection.kind == .album && touched.contains(summaries[index].collection.id) {
            let id = summaries[index].collection.id
            summaries[index].collection.estimatedAssetCount = totals[id] ?? 0
            summaries[index].count = fresh[id]?.count ?? 0
            summaries[index].keyAsset = fresh[id]?.keyAsset
        }
        return summaries
    }

    /// `rows` with each row whose identifier (`id`) is in `fresh` replaced by that row.
    package static func replace<Row>(_ rows: [Row], with fresh: [CollectionIdentifier: Row], id: (Row) -> CollectionIdentifier) -> [Row] {
        guard !fresh.isEmpty else { return rows }
        var rows = rows
        for index in rows.indices {
            if let row = fresh[id(rows[index])] { rows[index] = row }
        }
        return rows
    }
}
