import LibraryTree
import MediaProbing

/// A file the scan has to look at: new to the index, or changed since it was indexed or
/// since it failed.
enum ScanWork: Sendable {
    case new(FileEntry)
    case changed(FileEntry, assetID: Int64)
    case retry(FileEntry)

    var file: FileEntry {
        switch self {
        case .new(let file), .changed(let file, _), .retry(let file): file
        }
    }

    var assetID: Int64? {
        if case .changed(_, let id) = self { id } else { nil }
    }
}

/// What looking at one file found, to be written in the next batch.
package enum ScanOutcome: Sendable {
    /// Metadata read; `assetID` is the row to update, `nil` for a new asset.
    case read(FileEntry, assetID: Int64?, MediaMetadata, fingerprint: String)
    /// A new path holding the content of an asset whose old path is gone.
    case moved(FileEntry, assetID: Int64)
    /// The file cannot be indexed; an existing row for it is removed.
    case failed(FileEntry, assetID: Int64?, reason: String, didRead: Bool)
}
