import AssetsKit
import Foundation

/// Where an indexed library keeps the bytes of its originals: the one seam between the index
/// and the storage of the files it describes.
///
/// Originals are addressed by their stored path (relative to the library root, components
/// joined with `/`), as the index records them. Whatever reads an original — the image
/// pipeline, ``IndexedLibrary/originalFile(for:)`` and through it the server's downloads with
/// their byte ranges — opens the local file ``original(at:byteSize:modificationTime:)`` places,
/// confined to the folder it names and checked against the version the index knows, so a store
/// that keeps originals elsewhere (a bucket) answers with a cached download and nothing above
/// it changes.
/// Imports go through the store in two steps around the index transaction: ``stage(copying:named:)``
/// or ``stage(_:named:)`` before it, ``publish(_:in:candidates:)`` inside it (so no listing sees an
/// original whose row is not written), ``discard(_:)`` and ``remove(at:)`` when it does not commit
/// or an imported original is purged.
///
/// A store is also what a scan walks and reads (``ScanSource``).
///
/// ``LocalOriginalsStore`` keeps them in the library folder.
package protocol OriginalsStore: ScanSource {
    /// Whether new originals can be written and imported ones removed; an indexed library
    /// takes changes only then.
    var isWritable: Bool { get }

    /// What brings an original kept elsewhere to the local place ``original(at:byteSize:modificationTime:)``
    /// names; `nil` (the default) for a store whose originals are all on this machine. A library
    /// over a store with one makes a preview of every asset (browsing never waits for the
    /// network) and answers `RemoteOriginals`.
    var fetcher: (any OriginalFetching)? { get }

    /// How often the library, while watched, lists the store again to find changes made by
    /// others; `nil` (the default) when changes are seen as they happen (inotify on a folder).
    var rescanInterval: Duration? { get }

    /// Really tries the access the library needs to its originals: a folder is read (then asked
    /// whether it may be written), a bucket listed.
    /// - Returns: The status, and when it is `denied` why, in one line.
    func probeAccess() async -> (status: AuthorizationStatus, reason: String?)

    /// Where the local file with the bytes of the original stored at `path` is: a folder and
    /// a path in it, with the version the index knows. Nothing is checked here: a reader opens
    /// it with `OriginalLocation.open()`, which refuses a file that is gone, another
    /// version, or reached through a link out of that folder.
    func original(at path: String, byteSize: Int64, modificationTime: Int64) async throws -> OriginalLocation

    /// Writes a copy of `source` durably where no listing of the library sees it, for an import
    /// of a file called `name`.
    /// - Returns: The staged copy, a local file (its metadata and fingerprint are read from it).
    /// - Throws: `LibraryError.invalidChange(_:)` when it cannot be written.
    func stage(copying source: URL, named name: String) throws -> URL
    /// Writes `data` durably where no listing of the library sees it, for an import called `name`.
    /// - Returns: The staged copy, a local file.
    /// - Throws: `LibraryError.invalidChange(_:)` when it cannot be written.
    func stage(_ data: Data, named name: String) throws -> URL
    /// Gives a staged copy its place: the first of `candidates` not yet taken in `folder` (a
    /// stored path), never replacing an original.
    /// - Returns: The original as stored now.
    /// - Throws: `LibraryError.invalidChange(_:)` when every name is taken or it cannot be written.
    func publish(_ staged: URL, in folder: String, candidates: some Sequence<String>) throws -> StoredOriginal
    /// Removes a staged copy that will not be published.
    func discard(_ staged: URL)
    /// Removes the original stored at `path` (a purged import); a failure leaves it for a person.
    func remove(at path: String)
}

extension OriginalsStore {
    /// None: the originals are all on this machine.
    package var fetcher: (any OriginalFetching)? { nil }

    /// None: changes are seen as they happen.
    package var rescanInterval: Duration? { nil }
}
