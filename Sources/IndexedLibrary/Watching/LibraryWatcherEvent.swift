import AssetsKit

/// What a ``LibraryWatcher`` reports as it works, for a log.
public enum LibraryWatcherEvent: Sendable, CustomStringConvertible {
    /// The tree is watched with inotify: this many folders.
    case watching(folders: Int)
    /// The tree cannot be watched: it is rescanned every `interval` instead, for this reason.
    case polling(every: Duration, reason: String)
    /// The kernel's event queue overflowed and changes were lost: the whole tree is rescanned.
    case overflowed
    /// A rescan finished. `changedPaths`: the relative paths whose change caused it, sorted
    /// (empty for a periodic rescan; "" stands for the whole tree).
    case rescanned(changedPaths: [String], summary: ScanSummary)
    /// A rescan failed; the next change tries again.
    case rescanFailed(String)
    /// The watcher stopped: its thread ended and its descriptors are closed.
    case stopped

    public var description: String {
        switch self {
        case .watching(let folders):
            "watching \(folders) folder\(folders == 1 ? "" : "s") with inotify"
        case let .polling(interval, reason):
            "rescanning every \(interval) instead of watching: \(reason)"
        case .overflowed:
            "too many changes at once to follow one by one; rescanning the whole library"
        case let .rescanned(paths, summary):
            Self.cause(paths) + ": \(summary.added) added, \(summary.updated) updated, \(summary.moved) moved, "
                + "\(summary.removed) removed, \(summary.failed.count) not indexable"
        case .rescanFailed(let reason):
            "rescan failed: \(reason)"
        case .stopped:
            "stopped watching"
        }
    }

    private static func cause(_ paths: [String]) -> String {
        if paths.isEmpty { return "rescanned on schedule" }
        if paths.contains("") { return "rescanned the whole library" }
        let shown = paths.prefix(3).joined(separator: ", ")
        return "rescanned after \(paths.count) change\(paths.count == 1 ? "" : "s") (\(shown)\(paths.count > 3 ? ", …" : ""))"
    }
}
