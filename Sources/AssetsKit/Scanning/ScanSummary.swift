/// What a scan did: an index brought in line with the library's storage (see ``LibraryIndexing``).
public struct ScanSummary: Sendable, Hashable, Codable {
    /// Media files seen on disk (including those that failed).
    public var scanned = 0
    /// New assets.
    public var added = 0
    /// Assets whose file changed (size or modification time), re-read.
    public var updated = 0
    /// Assets whose file is gone from disk.
    public var removed = 0
    /// Assets whose file moved: same content at a new path, same identifier.
    public var moved = 0
    /// Metadata reads done (unchanged and moved files are not read again).
    public var metadataReads = 0
    /// Files and folders that are not in the library, with the reason.
    public var failed: [ScanFailure] = []

    /// A scan that has done nothing yet.
    public init() {}
}

/// A file or folder a scan could not index, and why.
public struct ScanFailure: Sendable, Hashable, Codable {
    /// The path relative to the library root.
    public var path: String
    /// Why it is not in the library, in words a person can act on.
    public var reason: String

    /// A failure of the file or folder at `path`.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}

/// How far a scan has come, for a progress bar. The walk and the reads overlap, so
/// ``discovered`` grows while the scan runs.
public struct ScanProgress: Sendable, Hashable {
    /// Media files found so far.
    public var discovered: Int
    /// Media files dealt with so far (unchanged, read, moved or failed).
    public var processed: Int

    /// Progress with this many files found and dealt with.
    public init(discovered: Int, processed: Int) {
        self.discovered = discovered
        self.processed = processed
    }
}
