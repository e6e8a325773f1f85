import Foundation
import LibraryTree
import MediaProbing

/// What a scan walks and reads: the folders of the place an indexed library's originals are
/// kept, one listing at a time, and the files in them. Every ``OriginalsStore`` is one.
///
/// The scanner compares each listing with the index and asks the source only about files new
/// to it or changed: their fingerprint first (cheap; it recognises a file that moved), then
/// their metadata. ``LocalOriginalsStore`` walks the library folder with POSIX calls; a store
/// elsewhere lists its objects and reads the heads of those it must.
package protocol ScanSource: Sendable {
    /// A new walk over the folders, each listed before those under it.
    /// - Throws: `LibraryError.accessDenied(path:reason:)` when the top cannot be listed.
    func walk() throws -> any ListingWalk
    /// A content fingerprint of `file`, alike for the same bytes wherever they are (see
    /// `FileFingerprint`), so that a file that moved keeps its asset.
    func fingerprint(of file: FileEntry) async throws -> String
    /// What `file` says about itself, read with `reader`.
    /// - Throws: What the file's reading threw (recorded as its failure), or a
    ///   ``ScanInterruption`` that stops the scan.
    func metadata(of file: FileEntry, reader: any MediaMetadataReading) async throws -> MediaMetadata
    /// Whether a media file is at `path` now, looking as long as it takes (a move is claimed
    /// only from a path that holds none).
    func holdsFile(at path: String) async -> Bool
    /// Whether a media file is at `path` now, answered without waiting: it is asked inside the
    /// index's write transaction, as rows whose file is gone are removed. A source that cannot
    /// look that fast answers from the walk it just made (`false`: the listing is its word).
    func holdsFileNow(at path: String) -> Bool
    /// Removes what an import cut short left behind (staged copies no listing shows).
    func removeLeftovers()
}

extension ScanSource {
    /// By default as ``holdsFileNow(at:)`` answers.
    package func holdsFile(at path: String) async -> Bool {
        holdsFileNow(at: path)
    }
}

/// An error of a ``ScanSource`` that is not a file's own: the store cannot be reached, or it
/// refused the credentials. It stops the scan, as an error of the walk does (what was written
/// stays; nothing is removed, nothing recorded against the file), where any other error of a
/// file's fingerprint or metadata is recorded as that file's failure and the scan goes on.
package protocol ScanInterruption: Error {}

/// One walk over a ``ScanSource``'s folders: the next folder's listing, or `nil` at the end.
package protocol ListingWalk {
    /// The next folder's listing; `nil` when every folder was listed.
    /// - Throws: `CancellationError` when the task is cancelled; what listing the store threw.
    mutating func next() async throws -> DirectoryListing?
}

/// A walk of a folder tree on this machine (``LocalOriginalsStore``'s), one folder at a time.
struct FolderListingWalk: ListingWalk {
    var folders: FolderWalk

    mutating func next() async throws -> DirectoryListing? {
        try Task.checkCancellation()
        return folders.next()
    }
}
