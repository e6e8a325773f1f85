/// A library that can keep itself in line with its storage while it is open, so that files
/// added, changed or removed by others reach its ``PhotoLibrary/changes()`` stream without
/// anyone asking for a scan.
///
/// Ask a library for it through ``PhotoLibrary/watching``; a library that reads its storage
/// afresh on every fetch (a folder library) needs no watching and answers `nil`.
public protocol LibraryWatching: Sendable {
    /// Starts watching and returns once no change can be missed any more.
    /// - Parameter report: Told what the watch does (what it watches, each catch-up, failures),
    ///   for a log; on any thread.
    /// - Returns: The running watch; stop it when the library is no longer served.
    func startWatching(report: @escaping @Sendable (LibraryWatchEvent) -> Void) async -> any LibraryWatch
}

/// A running watch of a library's storage (see ``LibraryWatching``).
public protocol LibraryWatch: Sendable {
    /// Stops watching; returns once nothing of the watch runs any more. Calling it again does nothing.
    func stop() async
}

/// What a library's watch reports, for a log: a line and how much it matters.
public struct LibraryWatchEvent: Sendable, Hashable, CustomStringConvertible {
    /// How much an event matters to whoever keeps the log.
    public enum Importance: Sendable, Hashable {
        /// Routine: a catch-up that found nothing, the watch stopping.
        case routine
        /// Worth a line: the watch started, a catch-up found changes.
        case notable
        /// The watch works less well than it should (e.g. polls instead of being told).
        case warning
        /// Something failed; the watch tries again later.
        case failure
    }

    /// How much the event matters (the server logs it at a matching level).
    public var importance: Importance
    /// The event in one line of text.
    public var description: String

    /// An event of the given importance, told in one line.
    public init(_ importance: Importance, _ description: String) {
        self.importance = importance
        self.description = description
    }
}
