#if canImport(Glibc)
import Glibc
#endif

/// The process's open-file limit, and how many connections it leaves room for.
///
/// Every connection is an open file. A server that accepts until the limit is reached fails
/// elsewhere: an original cannot be opened, SQLite cannot open its journal, and libdispatch,
/// which opens files of its own to watch its threads, ends the process. So the server raises its
/// soft limit to the hard one, as nginx and Go do, and holds connections to what is left after a
/// reserve for files, the index, caches and the tools it runs (``connections``).
enum OpenFileLimit {
    /// Raises the soft limit on open files to the hard limit (to at most 1,048,576).
    /// - Returns: The soft limit now in force.
    @discardableResult
    static func raise() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1_024 }
        let wanted = min(limit.rlim_max, 1 << 20)
        if limit.rlim_cur < wanted {
            var raised = limit
            raised.rlim_cur = wanted
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return Int(limit.rlim_cur)
    }

    /// The connections a process with the soft limit `files` may hold open: what is left after
    /// a quarter of it (at least 64, at most 4,096) is kept for everything else, and at least 8.
    static func connections(files: Int) -> Int {
        max(8, files - min(4_096, max(64, files / 4)))
    }
}
