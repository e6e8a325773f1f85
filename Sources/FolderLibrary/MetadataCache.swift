import AssetsKit
import Foundation
import LibraryFolders
import MediaProbing

/// The metadata of files already read in this process, valid while a file keeps its size and
/// modification date, and where each asset UUID was last seen.
actor MetadataCache {
    private struct Entry {
        let byteSize: Int64
        let modificationDate: Date
        let outcome: Result<MediaMetadata, ReadFailure>
    }

    /// Why a file's metadata could not be read, kept as text so the outcome can be cached.
    struct ReadFailure: Error {
        let reason: String
    }

    private var entries: [String: Entry] = [:]
    private var pathsByUUID: [UUID: String] = [:]

    /// The cached outcome for `file`, unless the file changed since.
    func outcome(for file: FileEntry) -> Result<MediaMetadata, ReadFailure>? {
        guard let entry = entries[file.relativePath], entry.byteSize == file.byteSize,
              entry.modificationDate == file.modificationDate else { return nil }
        return entry.outcome
    }

    func store(_ outcome: Result<MediaMetadata, ReadFailure>, for file: FileEntry) {
        entries[file.relativePath] = Entry(byteSize: file.byteSize, modificationDate: file.modificationDate, outcome: outcome)
    }

    func remember(_ files: [FileEntry]) {
        for file in files { pathsByUUID[AssetUUID.forFile(atRelativePath: file.relativePath)] = file.relativePath }
    }

    /// Where the file with this UUID was last seen, if it was.
    func relativePath(of uuid: UUID) -> String? {
        pathsByUUID[uuid]
    }
}
