import AssetsKit
import Foundation
import IndexedLibrary
import LibraryTree
import MediaProbing
import Synchronization

/// A store over a library folder that scans as the local store under it does.
protocol ScansLikeLocalStore: OriginalsStore {
    var base: LocalOriginalsStore { get }
}

extension ScansLikeLocalStore {
    func walk() throws -> any ListingWalk { try base.walk() }
    func fingerprint(of file: FileEntry) async throws -> String { try await base.fingerprint(of: file) }
    func metadata(of file: FileEntry, reader: any MediaMetadataReading) async throws -> MediaMetadata {
        try await base.metadata(of: file, reader: reader)
    }
    func holdsFileNow(at path: String) -> Bool { base.holdsFileNow(at: path) }
    func removeLeftovers() { base.removeLeftovers() }
    func probeAccess() async -> (status: AuthorizationStatus, reason: String?) { await base.probeAccess() }
}

/// The originals of a library folder, through a store that says it cannot write them (as
/// read-only media, or a bucket without write access, would).
struct ReadOnlyOriginals: ScansLikeLocalStore {
    let base: LocalOriginalsStore
    var isWritable: Bool { false }

    init(root: URL) { base = LocalOriginalsStore(root: root) }

    func original(at path: String, byteSize: Int64, modificationTime: Int64) async throws -> OriginalLocation {
        try await base.original(at: path, byteSize: byteSize, modificationTime: modificationTime)
    }
    func stage(copying source: URL, named name: String) throws -> URL { try base.stage(copying: source, named: name) }
    func stage(_ data: Data, named name: String) throws -> URL { try base.stage(data, named: name) }
    func publish(_ staged: URL, in folder: String, candidates: some Sequence<String>) throws -> StoredOriginal {
        try base.publish(staged, in: folder, candidates: candidates)
    }
    func discard(_ staged: URL) { base.discard(staged) }
    func remove(at path: String) { base.remove(at: path) }
}

/// The originals of a library folder, noting every call the library makes to its store.
final class RecordingOriginals: ScansLikeLocalStore {
    let base: LocalOriginalsStore
    private let log = Mutex<[String]>([])

    init(root: URL) { base = LocalOriginalsStore(root: root) }

    /// The calls so far, as `operation path-or-name`.
    var calls: [String] { log.withLock { $0 } }
    var isWritable: Bool { base.isWritable }

    private func note(_ call: String) { log.withLock { $0.append(call) } }

    func original(at path: String, byteSize: Int64, modificationTime: Int64) async throws -> OriginalLocation {
        note("original \(path)")
        return try await base.original(at: path, byteSize: byteSize, modificationTime: modificationTime)
    }

    func stage(copying source: URL, named name: String) throws -> URL {
        note("stage \(name)")
        return try base.stage(copying: source, named: name)
    }

    func stage(_ data: Data, named name: String) throws -> URL {
        note("stage \(name)")
        return try base.stage(data, named: name)
    }

    func publish(_ staged: URL, in folder: String, candidates: some Sequence<String>) throws -> StoredOriginal {
        let original = try base.publish(staged, in: folder, candidates: candidates)
        note("publish \(original.path)")
        return original
    }

    func discard(_ staged: URL) {
        note("discard")
        base.discard(staged)
    }

    func remove(at path: String) {
        note("remove \(path)")
        base.remove(at: path)
    }
}
