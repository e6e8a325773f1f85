extension LibraryWatcher {
    /// How a ``LibraryWatcher`` turns changes on disk into rescans.
    public struct Configuration: Sendable {
        /// Rescan once no change has come for this long.
        public var quietPeriod: Duration
        /// Rescan at the latest this long after the first change of a burst, even if changes keep coming.
        public var maximumDelay: Duration
        /// How long a rescan waits for a media file created in the burst to be closed after
        /// writing (counted from the first change), so that it is not indexed half-written.
        public var openFileWait: Duration
        /// How often the tree is rescanned when it cannot be watched.
        public var pollingInterval: Duration
        /// Whether to watch with inotify; `false` rescans every ``pollingInterval`` instead
        /// (for network file systems, whose remote changes inotify does not see, and buckets).
        public var usesInotify: Bool
        /// Why the tree is rescanned every ``pollingInterval`` when ``usesInotify`` is `false`,
        /// as ``LibraryWatcherEvent/polling(every:reason:)`` reports it.
        public var pollingReason = "watching is turned off"

        /// A configuration: 300 ms of quiet, 2 s at most, 10 s for open files, polling every 30 s
        /// when the tree cannot be watched.
        public init(quietPeriod: Duration = .milliseconds(300), maximumDelay: Duration = .seconds(2),
                    openFileWait: Duration = .seconds(10), pollingInterval: Duration = .seconds(30), usesInotify: Bool = true) {
            self.quietPeriod = quietPeriod
            self.maximumDelay = maximumDelay
            self.openFileWait = openFileWait
            self.pollingInterval = pollingInterval
            self.usesInotify = usesInotify
        }
    }
}
