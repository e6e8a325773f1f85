import AssetsKit
import Foundation
import LibraryTree
import MediaProbing

/// What the folder library knows of the tree between walks: each folder's listing with the
/// stamp it had, and the metadata read from its files. A walk lists again only the folders
/// whose stamp changed (``DirectoryStamp``); a folder seen for the first time is listed by
/// name only (no call per file), one listed before with `stat` of each file, so that a file's
/// metadata is read again only when its size or modification time changed. Kept in memory,
/// and in ``FolderCacheFile`` when the library was given a place for it (never inside the library).
actor FolderCache {
    /// A file's metadata, or why it could not be read.
    typealias Outcome = Result<MediaMetadata, ReadFailure>

    /// Why a file's metadata could not be read, kept as text so the outcome can be cached.
    struct ReadFailure: Error, Hashable {
        let reason: String
    }

    /// A file whose metadata was read: where it is in its folder, its version and the outcome.
    struct Reading: Sendable {
        let directory: String
        let index: Int
        let name: String
        let version: FileVersion?
        let outcome: Outcome
    }

    private let file: URL?
    private let rootPath: String
    private var folders: [String: CachedFolder] = [:]
    /// The last walk as it was given, kept so that a walk of an unchanged tree costs one `stat`
    /// per folder (``unchangedWalk()``); `nil` until the first walk.
    private var lastWalk: [CachedFolder]?
    /// The position in ``lastWalk`` of each folder's path, for keeping it up to date as files are read.
    private var lastWalkPositions: [String: Int] = [:]
    private var pathsByUUID: [UUID: String] = [:]
    /// The folders' paths in descending order, for passes over the unread files.
    private var sortedPaths: [String] = []
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
    /// folder in walk order with what is known of its files. The listings given include
    /// the folders passed over as already visited.
    func walk() throws -> [CachedFolder] {
        loadIfNeeded()
        if let unchanged = unchangedWalk() { return unchanged }
        let known = folders
        let reuse: ListingReuse = { path, stamp in
            guard let folder = known[path], folder.listing.stamp == stamp, stamp.isSettled(listedAt: folder.listedAt) else { return nil }
            return folder.listing
        }
        // Files are stat'ed only where an earlier listing has versions to compare them with.
        let detail: @Sendable (String) -> FileDetail = { known[$0] == nil ? .nameOnly : .status }
        var walk = try FolderEnumerator(root: URL(fileURLWithPath: rootPath, isDirectory: true)).directories(reusing: reuse, detail: detail)
        let now = now()
        var walked: [CachedFolder] = []
        walked.reserveCapacity(known.count)
        var current: [String: CachedFolder] = [:]
        current.reserveCapacity(known.count)
        while let listing = walk.next() {
            try Task.checkCancellation()
            var folder: CachedFolder
            if let old = known[listing.path], let stamp = listing.stamp, old.listing.stamp == stamp,
               stamp.isSettled(listedAt: old.listedAt) {
                folder = old
            } else {
                var fresh = listing
                if !listing.subdirectories.isEmpty {
                    let revisited = Set(listing.subdirectories.map(\.path))
                    fresh.skipped.removeAll { revisited.contains($0.path) }
                }
                fresh.files = []
                fresh.names = []
                folder = CachedFolder(listing: fresh, listedAt: now, files: Self.files(of: listing, carriedFrom: known[listing.path]))
                hasUnsavedChanges = true
            }
            if folder.listing.stamp != nil { current[listing.path] = folder }
            folder.listing.skipped = listing.skipped
            walked.append(folder)
        }
        if current.count != known.count || !known.keys.allSatisfy({ current[$0] != nil }) { hasUnsavedChanges = true }
        folders = current
        keepAsLastWalk(walked)
        return walked
    }

    /// The last walk again, when a new one would give the same: every folder it listed still has
    /// the stamp it was listed with, and that listing is settled (see ``DirectoryStamp``). An added,
    /// removed or renamed entry changes its folder's stamp, and a new folder its parent's, so a
    /// `stat` of each folder (from one descriptor of the root) tells; `nil` when a walk is needed.
    private func unchangedWalk() -> [CachedFolder]? {
        guard let lastWalk, !lastWalk.isEmpty else { return nil }
        let root = open(rootPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard root >= 0 else { return nil }
        defer { close(root) }
        var status = stat()
        // By position: a pass over every folder copies none.
        for index in lastWalk.indices {
            guard let stamp = lastWalk[index].listing.stamp, lastWalk[index].listing.isComplete,
                  stamp.isSettled(listedAt: lastWalk[index].listedAt) else { return nil }
            let path = lastWalk[index].listing.path
            let found = path.isEmpty ? fstat(root, &status) : fstatat(root, path, &status, 0)
            guard found == 0, DirectoryStamp(status) == stamp else { return nil }
        }
        return lastWalk
    }

    /// The outcome known for `file`, unless the file changed since.
    func outcome(for file: FileEntry) -> Outcome? {
        guard let folder = folders[file.directory], let index = folder.files.firstIndex(where: { $0.name == file.filename }),
              folder.files[index].version == FileVersion(file) else { return nil }
        return folder.files[index].outcome
    }

    /// Records what reading files gave; a reading is forgotten when its folder no longer lists the file.
    func store(_ readings: [Reading]) {
        for reading in readings {
            guard var folder = folders[reading.directory] else { continue }
            let position = folder.files.indices.contains(reading.index) && folder.files[reading.index].name == reading.name
                ? reading.index : folder.files.firstIndex { $0.name == reading.name }
            guard let position else { continue }
            // Both references to the files are let go first, so that they are changed in place.
            folders[reading.directory] = nil
            let walked = lastWalkPositions[reading.directory]
            if let walked { lastWalk?[walked].files = [] }
            folder.files[position].version = reading.version
            folder.files[position].outcome = reading.outcome
            folders[reading.directory] = folder
            if let walked { lastWalk?[walked].files = folder.files }
            hasUnsavedChanges = true
        }
    }

    /// Where a pass over the unread files is: a folder and a position in it.
    struct ReadCursor: Sendable {
        let folder: String
        let file: Int
    }

    /// Up to `limit` files whose metadata is not known yet, from `cursor` on, folders in
    /// descending path order (dated folders newest first); and the cursor to go on from, `nil`
    /// at the end.
    func unreadFiles(limit: Int, from cursor: ReadCursor?) -> (files: [(directory: String, index: Int, file: CachedFile)], cursor: ReadCursor?) {
        if cursor == nil || sortedPaths.count != folders.count { sortedPaths = folders.keys.sorted(by: >) }
        var unread: [(directory: String, index: Int, file: CachedFile)] = []
        var position = cursor.map { cursor in sortedPaths.firstIndex { $0 <= cursor.folder } ?? sortedPaths.count } ?? 0
        var start = cursor.map { cursor in position < sortedPaths.count && sortedPaths[position] == cursor.folder ? cursor.file : 0 } ?? 0
        while position < sortedPaths.count {
            let path = sortedPaths[position]
            if let folder = folders[path] {
                var index = start
                while index < folder.files.count {
                    if folder.files[index].state == .unread {
                        if unread.count == limit { return (unread, ReadCursor(folder: path, file: index)) }
                        unread.append((path, index, folder.files[index]))
                    }
                    index += 1
                }
            }
            position += 1
            start = 0
        }
        return (unread, nil)
    }

    /// Whether some file's metadata is not known yet.
    func hasUnreadFiles() -> Bool {
        folders.values.contains { folder in folder.files.indices.contains { folder.files[$0].state == .unread } }
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

    /// Has the next walk list `directory` again, with a `stat` of each file: one of its files
    /// was found changed when it was opened, and a file rewritten in place leaves its folder's
    /// stamp as it was.
    func relist(_ directory: String) {
        guard var folder = folders.removeValue(forKey: directory) else { return }
        folder.listing.stamp = nil
        folders[directory] = folder
        lastWalk = nil
        lastWalkPositions = [:]
    }

    /// The file with this UUID where it was last seen, of the version last listed or read
    /// there; `nil` when it was not seen, its folder no longer lists it, or only by name.
    func entry(of uuid: UUID) -> FileEntry? {
        guard let path = pathsByUUID[uuid] else { return nil }
        let directory = (path as NSString).deletingLastPathComponent, name = (path as NSString).lastPathComponent
        guard let folder = folders[directory], let index = folder.files.firstIndex(where: { $0.name == name }) else { return nil }
        return folder.entry(index, rootPath: rootPath)
    }

    private func loadIfNeeded() {
        guard !isLoaded else { return }
        isLoaded = true
        if let file, let stored = FolderCacheFile.read(from: file, rootPath: rootPath) {
            folders = stored
            if let walk = Self.storedWalk(of: stored) { keepAsLastWalk(walk) }
        }
    }

    /// Keeps `walked` as the last walk (see ``unchangedWalk()``).
    private func keepAsLastWalk(_ walked: [CachedFolder]) {
        lastWalk = walked
        lastWalkPositions = Dictionary(walked.indices.map { (walked[$0].listing.path, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The walk a ``FolderWalk`` makes of the tree the stored listings describe, in the same order
    /// (depth first, each folder's subfolders by path), so that the first walk after a load is only
    /// a `stat` of each folder when none changed. `nil` when the listings do not make a whole tree
    /// without loops (a folder missing, one reached twice): a real walk then tells.
    private static func storedWalk(of folders: [String: CachedFolder]) -> [CachedFolder]? {
        guard let rootStamp = folders[""]?.listing.stamp else { return nil }
        var visited: Set<DirectoryIdentity> = [DirectoryIdentity(device: rootStamp.device, inode: rootStamp.inode)]
        var pending = [""]
        var walked: [CachedFolder] = []
        walked.reserveCapacity(folders.count)
        while let path = pending.popLast() {
            guard let folder = folders[path] else { return nil }
            let subdirectories = folder.listing.subdirectories
            for subdirectory in subdirectories {
                guard visited.insert(DirectoryIdentity(device: subdirectory.device, inode: subdirectory.inode)).inserted else { return nil }
            }
            pending.append(contentsOf: subdirectories.map(\.path).sorted(by: >))
            walked.append(folder)
        }
        return walked.count == folders.count ? walked : nil
    }

    /// The files of a fresh listing, with the outcomes `old` knew for files whose size and
    /// modification time did not change.
    private static func files(of listing: DirectoryListing, carriedFrom old: CachedFolder?) -> [CachedFile] {
        if listing.files.isEmpty {
            return listing.names.map { CachedFile(name: $0.name, mediaType: $0.mediaType) }
        }
        var known: [String: CachedFile] = [:]
        for file in old?.files ?? [] { known[file.name] = file }
        return listing.files.map { entry in
            let version = FileVersion(entry)
            if let before = known[entry.filename], before.version == version { return before }
            return CachedFile(name: entry.filename, mediaType: entry.mediaType, version: version)
        }
    }

    /// The system's time in nanoseconds since 1970.
    @Sendable static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
