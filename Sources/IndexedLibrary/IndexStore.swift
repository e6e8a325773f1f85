import AssetsKit
import Foundation

/// Where an indexed library's records live: the one seam between ``IndexedLibrary`` and its
/// database.
///
/// Every read and write of the index goes through these operations — listings, counts and
/// pages by collection and filter, lookups by identifier, collections, change batches and
/// their history, drafts, and the scanner's comparisons and batches — so another database
/// (PostgreSQL, for many servers over one library) is another conformance, not a branch in
/// the library. ``SQLiteIndexStore`` keeps them in a SQLite file through GRDB.
///
/// Dates that decide what a smart album holds (Recently Added) are given by the library, which
/// owns the clock.
package protocol IndexStore: Sendable {
    // MARK: The library

    /// Records the folder the index describes.
    func recordRoot(_ path: String) throws
    /// Records that a scan of the whole tree finished at `date`.
    func recordCompletedScan(at date: Date) async throws
    /// Whether a scan of the whole tree has ever finished on this index.
    func hasCompletedScan() async throws -> Bool

    // MARK: Reading

    /// The smart albums (All Photos first), albums and folders, then every folder of the tree,
    /// empty ones too (titled under `libraryName`), with exact counts.
    func collections(libraryName: String, recentlyAddedSince: Date) async throws -> [AssetCollection]
    /// Every collection, as ``collections(libraryName:recentlyAddedSince:)`` lists them, with
    /// its exact count under `filter` and its key asset (the oldest under it, ties by row), in
    /// a number of queries that does not grow with the number of albums.
    func albumSummaries(libraryName: String, filter: MediaFilter, recentlyAddedSince: Date) async throws -> [AlbumSummary]
    /// The number of listed assets of a collection that pass `filter`.
    func assetCount(in collection: CollectionIdentifier, filter: MediaFilter, recentlyAddedSince: Date) async throws -> Int
    /// A lazily paged result of a collection's listed assets.
    func assets(in collection: CollectionIdentifier, options: FetchOptions, recentlyAddedSince: Date) async throws -> FetchResult
    /// The listed (not deleted) assets among `uuids`, by UUID.
    func listedAssets(withUUIDs uuids: [UUID]) async throws -> [UUID: Asset]
    /// The rows of those `uuids` in the library, Recently Deleted included, by UUID, in one query.
    func records(uuids: [UUID]) async throws -> [UUID: AssetRecord]

    // MARK: Changes

    /// Applies change requests in one transaction (all or none); `staged` are the batch's
    /// imports, in request order, published inside it.
    /// - Returns: What the batch made, and the stored paths of purged imports to remove once committed.
    func apply(_ requests: [ChangeRequest], staged: [StagedImport], now: Date,
               recentlyAddedSince: Date) async throws -> (result: ChangeResult, originalsToRemove: [String])
    /// Every change committed to the index, merged per transaction, from the moment of the call:
    /// this process's at once, other processes' within about a second.
    func liveChanges() -> AsyncStream<LibraryChange>
    /// The changes recorded after `token`, merged.
    func changes(since token: ChangeToken) async throws -> LibraryChange

    // MARK: Drafts

    /// Saves a draft's identifiers (their text form) in order, replacing a draft of that name.
    func saveDraft(named name: String, identifiers: [String], savedAt: Date) async throws
    /// A draft's identifiers in order; `nil` when no draft has this name.
    func draftIdentifiers(named name: String) async throws -> [String]?
    /// The names of the saved drafts, sorted.
    func draftNames() async throws -> [String]
    /// Deletes a draft; whether there was one.
    func deleteDraft(named name: String) async throws -> Bool

    // MARK: Scanning

    /// Whether the index holds any asset row (Recently Deleted and hidden ones included).
    func hasAssets() async throws -> Bool
    /// What the index holds for one folder of the tree.
    func indexedDirectory(at path: String) async throws -> IndexedDirectory
    /// The assets whose content has this fingerprint: their row ids and paths.
    func assets(withFingerprint fingerprint: String) async throws -> [(id: Int64, path: String)]
    /// Writes a scan's batch in one transaction; what it adds and moves is counted into `summary`.
    func apply(_ batch: ScanBatch, addedAt: Date, summary: ScanSummary) async throws -> ScanSummary
    /// What the index holds under folders the walk did not find: asset rows, the folders listed
    /// as albums, and the folders of recorded failures and ignored paths.
    func leftovers(inFoldersWhere isGone: @escaping @Sendable (String) -> Bool) async throws -> ScanLeftovers
    /// Removes the asset rows `ids` whose path `isGone` says is gone now; how many it removed.
    func removeAssets(_ ids: [Int64], ifGone isGone: @escaping @Sendable (String) -> Bool) async throws -> Int
    /// Forgets the failures and ignored paths recorded in these folders, and stops listing these
    /// `directories` as albums (those left without assets).
    func forget(failureFolders: [String], ignoredFolders: [String], directories: [String]) async throws

    // MARK: Previews

    /// The assets of the camera roll that get a preview under `coverage` (by default the photos
    /// without an embedded EXIF thumbnail) and have none of their file's current version, newest
    /// first, in one query; the `newest` of them only, when given.
    func photosLackingPreviews(coverage: PreviewCoverage, newest: Int?) async throws -> [PhotoLackingPreview]
    /// Records that these previews exist, in one transaction.
    func recordPreviews(_ previews: [PreviewRecord]) async throws
    /// Forgets the previews no asset needs now under `coverage` — their asset is gone, out of the
    /// camera roll or has an embedded thumbnail now — and answers them, so their files can be removed.
    func removeUnneededPreviews(coverage: PreviewCoverage) async throws -> [PreviewRecord]
    /// Forgets every preview (their folder is gone).
    func forgetAllPreviews() async throws
}

/// What the index holds under folders a scan did not find (see ``IndexStore/leftovers(inFoldersWhere:)``).
package struct ScanLeftovers: Sendable {
    /// The asset rows.
    package var assets: [Int64]
    /// The folders listed as albums.
    package var directories: [String]
    /// The folders of recorded scan failures.
    package var failureFolders: [String]
    /// The folders of ignored (purged) paths.
    package var ignoredFolders: [String]

    package init(assets: [Int64], directories: [String], failureFolders: [String], ignoredFolders: [String]) {
        self.assets = assets
        self.directories = directories
        self.failureFolders = failureFolders
        self.ignoredFolders = ignoredFolders
    }
}
