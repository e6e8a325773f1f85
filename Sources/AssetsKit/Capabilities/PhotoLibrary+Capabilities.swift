/// By default a library has none of the optional capabilities; a backend answers those it has.
extension PhotoLibrary {
    public var changing: (any LibraryChanging)? { nil }
    public var changeHistory: (any LibraryChangeHistory)? { nil }
    public var indexing: (any LibraryIndexing)? { nil }
    public var drafts: (any LibraryDrafts)? { nil }
    public var watching: (any LibraryWatching)? { nil }
    public var skippedFileReport: (any SkippedFileReporting)? { nil }
}
