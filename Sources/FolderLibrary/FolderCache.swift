import AssetsKit
import Foundation
import LibraryFolders
import MediaProbing

/// What the folder library knows of the tree between walks: each folder's listing with the
/// stamp it had, and the metadata read from its files. A walk lists again only the folders
/// whose stamp changed (``DirectoryStamp``), and a file's metadata is read again only when its
/// size or modification time changed. Kept in memory, and in ``FolderCacheFile`` when the
/// library was given a place for it (never inside the library).
actor FolderCache {
    /// A file's metadata, or why it could not be read.
    typealias Outcome = Result<MediaMetadata, ReadFailure>

    /// Why a file's metadata could not be read, kept as text so the outcome can be cached.
    struct ReadFailure: Error, Hashable {
        let reason: String
    }

    /// One folder as last listed.
    struct Folder: Sendable {
        /// Its listing, without the folders a walk passed over as already visited.
        var listing: DirectoryListing
        /// When it was listed, in nanoseconds since 1970.
        var listedAt: Int64
        /// The metadata outcome of each of `listing.files`, by position; `nil` while unread.
        var outcomes: [Outcome?]
    }

    private let file: URL?
    private let rootPath: String
    private var folders: [String: Folder] = [:]
    private var pathsByUUID: [UUID: String] = [:]
    private let now: @Sendable () -> Int64
    private var isLoaded = false
    private var hasUnsavedChanges = false

    /// - Parameters:
    ///   - file: Where the cache is kept between processes; `nil` keeps it in memory only.
    ///   - root: The library root.
    ///   - now: The time in nanoseconds since 1970 (see ``DirectoryStamp/isSettled(listedAt:)``).
    init(file: URL?, root: URL, now: @escaping @Sendable () -> Int64 = FolderCache.now) {
        self.file = file
        self.rootPath = root.path
        self.now = now
    }

    /// Walks the tree once, listing again only the folders that changed, and gives every
    /// folder in walk order with the outcomes known for its files. The listings given include
    /// the folders passed over as already visited.
    func walk() throws -> [Folder] {
        loadIfNeeded()
        let known = folders
        let reuse: ListingReuse = { path, stamp in
            guard let folder = known[path], folder.listing.stamp == stamp, stamp.isSettled(listedAt: folder.listedAt) else { return nil }
            return folder.listing
        }
        var walk = try FolderEnumerator(root: URL(fileURLWithPath: rootPath, isDirectory: true)).directories(reusing: reuse)
        let now = now()
        var walked: [Folder] = []
        var current: [String: Folder] = [:]
        current.reserveCapacity(known.count)
        while let listing = walk.next() {
            try Task.checkCancellation()
            let folder: Folder
            if let old = known[listing.path], let stamp = listing.stamp, old.listing.stamp == stamp,
               stamp.isSettled(listedAt: old.listedAt) {
                folder = old
            } else {
                var fresh = listing
                if !listing.subdirectories.isEmpty {
                    let revisited = Set(listing.subdirectories.map(\.path))
                    fresh.skipped.removeAll { revisited.contains($0.path) }
                }
                folder = Folder(listing: fresh, listedAt: now, outcomes: Self.carriedOutcomes(for: fresh.files, from: known[listing.path]))
                hasUnsavedChanges = true
            }
            if folder.listing.stamp != nil { current[listing.path] = folder }
            walked.append(Folder(listing: listing, listedAt: folder.listedAt, outcomes: folder.outcomes))
        }
        if current.count != known.count || !known.keys.allSatisfy({ current[$0] != nil }) { hasUnsavedChanges = true }
        folders = current
        return walked
    }

    /// The outcome known for `file`, unless the file changed since.
    func outcome(for file: FileEntry) -> Outcome? {
        guard let folder = folders[file.directory], let index = folder.listing.files.firstIndex(of: file) else { return nil }
        return folder.outcomes[index]
    }

    /// Records the outcomes of reading files, each the `index`th file of its folder's listing
    /// (looked for when `nil`); one is forgotten when its folder was listed again since and the
    /// file changed.
    func store(_ outcomes: [(file: FileEntry, index: Int?, outcome: Outcome)]) {
        for (file, index, outcome) in outcomes {
            guard var folder = folders[file.directory] else { continue }
            let position = index.flatMap { folder.listing.files.indices.contains($0) && folder.listing.files[$0] == file ? $0 : nil }
                ?? folder.listing.files.firstIndex(of: file)
            guard let position else { continue }
            folders[file.directory] = nil
            folder.outcomes[position] = outcome
            folders[file.directory] = folder
            hasUnsavedChanges = true
        }
    }

    /// Writes the cache to its file when something changed since it was read or written.
    func save() {
        guard hasUnsavedChanges, let file else { return }
        hasUnsavedChanges = false
        FolderCacheFile.write(folders, rootPath: rootPath, to: file)
    }

    /// Remembers where the assets with these UUIDs were found, for finding them again without a walk.
    func remember(_ paths: [(uuid: UUID, relativePath: String)]) {
        for (uuid, path) in paths { pathsByUUID[uuid] = path }
    }

    /// Where the file with this UUID was last seen, if it was.
    func relativePath(of uuid: UUID) -> String? {
        pathsByUUID[uuid]
    }

    private func loadIfNeeded() {
        guard !isLoaded else { return }
        isLoaded = true
        if let file, let stored = FolderCacheFile.read(from: file, rootPath: rootPath) { folders = stored }
    }

    /// The outcomes of `files` that `old` knew, for files whose size and modification time did not change.
    private static func carriedOutcomes(for files: [FileEntry], from old: Folder?) -> [Outcome?] {
        guard let old else { return Array(repeating: nil, count: files.count) }
        var known: [String: Int] = [:]
        for (index, file) in old.listing.files.enumerated() { known[file.relativePath] = index }
        return files.map { file in
            guard let index = known[file.relativePath], old.listing.files[index] == file else { return nil }
            return old.outcomes[index]
        }
    }

    /// The system's time in nanoseconds since 1970.
    @Sendable static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
