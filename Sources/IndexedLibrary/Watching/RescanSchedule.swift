/// When a burst of changes has settled enough to rescan: the debouncer of ``LibraryWatcher``.
///
/// A rescan runs once no change has come for the quiet period, or once the first change of the
/// burst is the maximum delay old, so that a long copy still shows its files as it goes. While
/// a file created in the burst is still open for writing, the rescan waits for it to be closed
/// (up to the open-file wait after the first change), so that a half-written photo is not
/// indexed as a broken one.
struct RescanSchedule {
    typealias Instant = ContinuousClock.Instant

    let quietPeriod: Duration
    let maximumDelay: Duration
    let openFileWait: Duration
    private var first: Instant?
    private var last: Instant?
    /// Media files created and not yet closed after writing, by relative path.
    private var openFiles: Set<String> = []
    /// The relative paths that changed since the last rescan.
    private(set) var changedPaths: Set<String> = []

    init(quietPeriod: Duration, maximumDelay: Duration, openFileWait: Duration) {
        self.quietPeriod = quietPeriod
        self.maximumDelay = maximumDelay
        self.openFileWait = openFileWait
    }

    /// Whether a change is waiting for a rescan.
    var isPending: Bool { first != nil }

    /// Notes a change to `path` at `now`.
    mutating func noteChange(_ path: String, at now: Instant) {
        if first == nil { first = now }
        last = now
        changedPaths.insert(path)
    }

    /// Notes that a media file was created (it is being written until ``noteClosed(_:at:)``).
    mutating func noteCreated(_ path: String, at now: Instant) {
        openFiles.insert(path)
        noteChange(path, at: now)
    }

    /// Notes that a file was closed after writing, or moved away or deleted.
    mutating func noteClosed(_ path: String, at now: Instant) {
        openFiles.remove(path)
        noteChange(path, at: now)
    }

    /// When to rescan; `nil` while nothing changed.
    var deadline: Instant? {
        guard let first, let last else { return nil }
        if !openFiles.isEmpty { return first + max(openFileWait, maximumDelay) }
        return min(last + quietPeriod, first + maximumDelay)
    }

    /// Starts a new burst after a rescan was asked for; returns the paths that changed in the last one.
    mutating func takeChanges() -> Set<String> {
        defer {
            first = nil
            last = nil
            openFiles = []
            changedPaths = []
        }
        return changedPaths
    }
}
