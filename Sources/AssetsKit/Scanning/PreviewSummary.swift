/// What a run of ``LibraryPreviewing/makePreviews(progress:)`` did.
public struct PreviewSummary: Sendable, Hashable, Codable {
    /// Previews made.
    public var made = 0
    /// Photos that needed none: they had a preview of their current version already, or an
    /// embedded EXIF thumbnail (which is their first image).
    public var unchanged = 0
    /// Previews of assets no longer in the library, removed.
    public var removed = 0
    /// Photos whose preview could not be made, with the reason (they are shown without one).
    public var failed: [ScanFailure] = []

    /// An empty summary, to count into.
    public init() {}
}

/// How far a run of ``LibraryPreviewing/makePreviews(progress:)`` is.
public struct PreviewProgress: Sendable, Hashable {
    /// Previews to make in this run.
    public var total: Int
    /// Made or failed so far.
    public var done: Int
    /// Failed so far.
    public var failed: Int

    /// Progress with `done` of `total` previews dealt with, `failed` of them failed.
    public init(total: Int, done: Int, failed: Int) {
        self.total = total
        self.done = done
        self.failed = failed
    }
}
