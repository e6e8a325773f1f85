/// By default a library has none of the optional capabilities; a backend answers those it has.
extension PhotoLibrary {
    /// `nil`: the library cannot be changed.
    public var changing: (any LibraryChanging)? { nil }
    /// `nil`: the library keeps no history.
    public var changeHistory: (any LibraryChangeHistory)? { nil }
    /// `nil`: the library keeps no index.
    public var indexing: (any LibraryIndexing)? { nil }
    /// `nil`: the library keeps no drafts.
    public var drafts: (any LibraryDrafts)? { nil }
    /// `nil`: the library needs no watching.
    public var watching: (any LibraryWatching)? { nil }
    /// `nil`: the library reports no skipped files.
    public var skippedFileReport: (any SkippedFileReporting)? { nil }
    /// `nil`: the library's answers are exact from the start.
    public var backgroundSettling: (any BackgroundSettling)? { nil }
    /// `nil`: the library makes no previews.
    public var previewing: (any LibraryPreviewing)? { nil }
    /// `nil`: every original is on this machine.
    public var remoteOriginals: (any RemoteOriginals)? { nil }
}
