/// A library that reports the files of its storage it passed over while answering (unreadable
/// files and folders, special files, links leading out), so a listing can say what it left out.
///
/// Ask a library for it through ``PhotoLibrary/skippedFileReport``; a library that keeps such
/// files elsewhere (an index records its scan failures) answers `nil`.
public protocol SkippedFileReporting: Sendable {
    /// The files of `collection` passed over when listing it under `filter`, with reasons.
    func skippedFiles(in collection: CollectionIdentifier, filter: MediaFilter) async throws -> [SkippedFile]
}

/// A file or folder a library passed over, and why.
public struct SkippedFile: Sendable, Hashable, Codable {
    /// The path relative to the library root.
    public var path: String
    /// Why it is not part of the library, in words a person can act on.
    public var reason: String

    /// A file passed over at `path` (relative to the root), for `reason`.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}
