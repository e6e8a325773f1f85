import AssetsKit
import Foundation
import Synchronization

/// The originals of a bucket kept on this machine: a folder (beside the index,
/// `<index name>-originals/`) holding each fetched original at its path relative to the bucket's
/// prefix, with the modification time the index knows, so `OriginalLocation.open()` finds it the
/// version it asks for.
///
/// Its size is held to a byte budget by evicting the originals used least recently: a use (an
/// original found local by ``isLocal(_:)``) is noted in memory and written as the file's access
/// time before an eviction, so the order holds across processes and runs. Downloads are written
/// into `.partial/` (hidden, never part of the library) and renamed into place whole.
final class OriginalsCache: Sendable {
    /// The folder holding the originals.
    let folder: URL
    /// The most the originals may take, in bytes. One alone larger than it is kept only until
    /// the next eviction (its reader has it open by then), and nothing else is evicted for it.
    let byteBudget: Int64
    /// The folders made here are their owner's alone (0700): the originals may be private photos
    /// with their places, and this is the only copy on this machine (a download's file is 0600).
    static var folderAttributes: [FileAttributeKey: Any] { [.posixPermissions: 0o700] }
    /// How long a file in `.partial/` must have been left alone to be a leftover.
    static let leftoverAge: TimeInterval = 600

    private struct State {
        /// Uses not yet written as access times: path → when.
        var uses: [String: timespec] = [:]
        /// The bytes the cache holds, as last counted and added to since; `nil` before the first count.
        var bytes: Int64?
        /// Partial files being written by this process.
        var partials: Set<String> = []
    }

    private let state = Mutex(State())

    /// `utimensat`'s "now" and "leave as it is" (Linux's values, which Glibc's module does not bring into Swift).
    private static let timeNow = (1 << 30) - 1, timeOmitted = (1 << 30) - 2

    init(folder: URL, byteBudget: Int64) {
        self.folder = folder.standardizedFileURL
        self.byteBudget = byteBudget
    }

    /// Where downloads and heads are written before they are whole.
    var partialFolder: URL { folder.appendingPathComponent(".partial", isDirectory: true) }

    /// The local file of the original at `relativePath`.
    func url(of relativePath: String) -> URL {
        URL(fileURLWithPath: folder.path + "/" + relativePath, isDirectory: false)
    }

    /// Whether the original `location` names is here, of its version (one `stat`); a yes is a
    /// use unless `notingUse` is `false` (a read the person did not ask for).
    func isLocal(_ location: OriginalLocation, notingUse: Bool = true) -> Bool {
        var status = stat()
        guard stat(url(of: location.relativePath).path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
              Int64(status.st_size) == location.byteSize,
              Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec) == location.modificationTime else {
            return false
        }
        guard notingUse else { return true }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        state.withLock { $0.uses[location.relativePath] = now }
        return true
    }

    /// A new name in `.partial/` for a download (or a head read's folder), noted as being written
    /// until ``finished(_:)``.
    func newPartialFile() throws -> URL {
        try FileManager.default.createDirectory(at: partialFolder, withIntermediateDirectories: true, attributes: Self.folderAttributes)
        let file = partialFolder.appendingPathComponent("\(UUID().uuidString).part")
        state.withLock { _ = $0.partials.insert(file.lastPathComponent) }
        return file
    }

    /// The partial file is no longer written by this process (installed, or removed).
    func finished(_ partial: URL) {
        state.withLock { _ = $0.partials.remove(partial.lastPathComponent) }
    }

    /// Gives the whole download `partial` its place as the original `location` names, with the
    /// index's modification time, replacing an older version there; the time of use is now.
    func install(_ partial: URL, as location: OriginalLocation) throws {
        defer { finished(partial) }
        let target = url(of: location.relativePath)
        let seconds = location.modificationTime / 1_000_000_000, nanoseconds = location.modificationTime % 1_000_000_000
        var times = [timespec(tv_sec: 0, tv_nsec: Self.timeNow), timespec(tv_sec: Int(seconds), tv_nsec: Int(nanoseconds))]
        guard utimensat(AT_FDCWD, partial.path, &times, 0) == 0 else { throw Self.failure("cannot set its time", location) }
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                attributes: Self.folderAttributes)
        var previous = stat()
        let replaced = stat(target.path, &previous) == 0 ? Int64(previous.st_size) : 0
        guard rename(partial.path, target.path) == 0 else { throw Self.failure("cannot put it in place", location) }
        state.withLock { state in
            state.bytes = state.bytes.map { $0 - replaced + location.byteSize }
            state.uses[location.relativePath] = nil
        }
    }

    private static func failure(_ what: String, _ location: OriginalLocation) -> LibraryError {
        .unreadableFile(path: location.filename, reason: "the fetched original: \(what): \(String(cString: strerror(errno)))")
    }

    /// Evicts the originals used least recently until the cache is within its budget, never the
    /// one at `kept`; returns the paths evicted. The folder is walked only when it may be over.
    ///
    /// An original larger than the whole budget is not kept: it goes first at the next eviction
    /// however recently it was used, and while it is the one at `kept` (just fetched, being read)
    /// the others are measured against the budget without it, so none is evicted to make room
    /// for what can never fit. The cache is over its budget only by that one original, and only
    /// until the next fetch.
    @discardableResult
    func evict(keeping kept: String) -> [String] {
        let (uses, known) = state.withLock { state -> ([String: timespec], Int64?) in
            defer { state.uses = [:] }
            return (state.uses, state.bytes)
        }
        for (path, time) in uses {
            var times = [time, timespec(tv_sec: 0, tv_nsec: Self.timeOmitted)]
            _ = utimensat(AT_FDCWD, url(of: path).path, &times, AT_SYMLINK_NOFOLLOW)
        }
        if let known, known <= byteBudget { return [] }
        var files = originals()
        let oversized = files.first { $0.path == kept && $0.size > byteBudget }?.size ?? 0
        var total = files.reduce(0) { $0 + $1.size } - oversized
        var evicted: [String] = []
        files.sort { first, second in
            let (firstTooLarge, secondTooLarge) = (first.size > byteBudget, second.size > byteBudget)
            if firstTooLarge != secondTooLarge { return firstTooLarge }
            return (first.used.tv_sec, first.used.tv_nsec) < (second.used.tv_sec, second.used.tv_nsec)
        }
        for file in files where (total > byteBudget || file.size > byteBudget) && file.path != kept {
            if unlink(url(of: file.path).path) == 0 {
                total -= file.size
                evicted.append(file.path)
            }
        }
        state.withLock { $0.bytes = total + oversized }
        return evicted
    }

    /// The bytes the originals here take, counted now.
    var byteCount: Int64 {
        originals().reduce(0) { $0 + $1.size }
    }

    /// Every original here: path, size and last use (access time); hidden entries (`.partial/`) not.
    private func originals() -> [(path: String, size: Int64, used: timespec)] {
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var found: [(String, Int64, timespec)] = []
        while let path = walker.nextObject() as? String {
            if (path as NSString).lastPathComponent.hasPrefix(".") {
                walker.skipDescendants()
                continue
            }
            var status = stat()
            guard lstat(folder.path + "/" + path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            found.append((path, Int64(status.st_size), status.st_atim))
        }
        return found
    }

    /// Removes what downloads and head reads cut short left in `.partial/` (a process killed
    /// mid-download): entries not written by this process and left alone for ``leftoverAge``.
    @discardableResult
    func removeLeftovers(now: Date = Date()) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: partialFolder.path) else { return 0 }
        let ours = state.withLock { $0.partials }
        var removed = 0
        for name in names where !ours.contains(name) {
            let path = partialFolder.appendingPathComponent(name).path
            var status = stat()
            guard lstat(path, &status) == 0, Double(status.st_mtim.tv_sec) < now.timeIntervalSince1970 - Self.leftoverAge else { continue }
            if (try? FileManager.default.removeItem(atPath: path)) != nil { removed += 1 }
        }
        return removed
    }
}
