import AssetsKit
import Synchronization

/// The user albums and folders as an index store last read them, with the change token they were
/// read at: while the index's latest change token is still that one, the album list answers
/// from here instead of reading every album again (at 20,000 albums, 35–85 ms; their key assets
/// a second). Every change of the index — a scan, an import, an album edited, an asset hidden
/// or deleted — records a change and so moves the token; tokens are handed out in commit order
/// (SQLite's one writer, PostgreSQL's write lock), so a token read in the same snapshot as the
/// albums names exactly what was read. Per process: another server's change moves the token in
/// the database, which the next read sees.
///
/// The smart albums and the directories are not kept: Recently Added moves with the clock, and
/// the directories are few and read by index.
package final class AlbumListMemo: Sendable {
    private struct Kept {
        var token: Int64
        var albums: [AssetCollection]?
        var summaries: [MediaFilter: [AlbumSummary]] = [:]
    }

    private let kept = Mutex<Kept?>(nil)

    /// An empty memo.
    package init() {}

    /// The albums read at `token`, if kept.
    package func albums(at token: Int64) -> [AssetCollection]? {
        kept.withLock { $0?.token == token ? $0?.albums : nil }
    }

    /// The albums' rows of the album list under `filter` read at `token`, if kept.
    package func summaries(_ filter: MediaFilter, at token: Int64) -> [AlbumSummary]? {
        kept.withLock { $0?.token == token ? $0?.summaries[filter] : nil }
    }

    /// Keeps `albums`, read at `token` (unless something read at a later token is kept).
    package func keep(albums: [AssetCollection], at token: Int64) {
        update(at: token) { $0.albums = albums }
    }

    /// Keeps the albums' rows of the album list under `filter`, read at `token`.
    package func keep(summaries: [AlbumSummary], filter: MediaFilter, at token: Int64) {
        update(at: token) { $0.summaries[filter] = summaries }
    }

    private func update(at token: Int64, _ change: (inout Kept) -> Void) {
        kept.withLock { kept in
            if let current = kept?.token, current > token { return }
            var entry = kept?.token == token ? kept ?? Kept(token: token) : Kept(token: token)
            change(&entry)
            kept = entry
        }
    }
}
