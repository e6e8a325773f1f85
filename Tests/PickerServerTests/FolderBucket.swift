import AssetsKit
import Foundation
import IndexedLibrary
import LibraryTree
import MediaProbing
import PickerSessions
import ProcessRunning
import Synchronization
import TestSupport

/// Originals kept in a folder of their own, as a bucket keeps them, brought into a local cache
/// folder by a real file copy when they are asked for: the `OriginalFetching` seam exercised for
/// real, without the network. One transfer per original at a time, shared by every caller
/// (the seam's promise); a caller that is cancelled stops waiting at once, and the transfer
/// stops when no caller is left. A gate the test closes holds each transfer half-way (its first
/// progress told), so that a test sees progress, joins a transfer or cancels it mid-way.
final class FolderBucketFetcher: OriginalFetching {
    /// What the fetcher has been asked and has done.
    struct Counts: Equatable, Sendable {
        /// Calls of `fetch` (each a waiter).
        var fetchCalls = 0
        /// Transfers started (copies of an original).
        var transfers = 0
        /// Transfers that put their original in place.
        var completed = 0
        /// Transfers stopped because no caller waited any more.
        var cancelled = 0
        /// Transfers that failed otherwise.
        var failed = 0
        /// Transfers held at the closed gate now.
        var atGate = 0
    }

    private struct Waiter {
        let continuation: CheckedContinuation<Void, any Error>
        let progress: (@Sendable (TransferProgress) -> Void)?
    }

    private struct Transfer {
        let number: Int
        var waiters: [Int: Waiter] = [:]
        var latest: TransferProgress?
        var task: Task<Void, Never>?
    }

    private struct State {
        var counts = Counts()
        var transfers: [String: Transfer] = [:]
        var nextNumber = 0
        var gateClosed = false
        var unreachable = false
        var atGate: [Int: CheckedContinuation<Void, any Error>] = [:]
        var progressTold: [TransferProgress] = []
        /// The part file each copy under way writes.
        var parts: [String: URL] = [:]
    }

    /// The folder the originals are kept in ("the bucket").
    let bucket: URL
    private let state = Mutex(State())

    init(bucket: URL) {
        self.bucket = bucket
    }

    var counts: Counts { state.withLock { $0.counts } }
    /// Every progress told to a caller, in order.
    var progressTold: [TransferProgress] { state.withLock { $0.progressTold } }

    /// Makes every transfer from now on fail as a bucket out of reach does (`LibraryError.unreadableFile`), or not.
    func setUnreachable(_ unreachable: Bool) {
        state.withLock { $0.unreachable = unreachable }
    }

    /// Holds every transfer half-way from now on, until ``openGate()``.
    func closeGate() {
        state.withLock { $0.gateClosed = true }
    }

    /// Lets the transfers held at the gate, and those to come, go on.
    func openGate() {
        let held = state.withLock { state in
            state.gateClosed = false
            state.counts.atGate = 0
            defer { state.atGate = [:] }
            return Array(state.atGate.values)
        }
        for continuation in held { continuation.resume() }
    }

    func isLocal(_ location: OriginalLocation) -> Bool {
        (try? location.open()) != nil
    }

    func arrivingFile(_ location: OriginalLocation) -> ArrivingFile? {
        state.withLock { $0.parts[location.relativePath] }.flatMap { ArrivingFile(path: $0.path) }
    }

    func fetch(_ location: OriginalLocation, progress: (@Sendable (TransferProgress) -> Void)?) async throws {
        let key = location.relativePath
        let waiter = state.withLock { state in
            state.counts.fetchCalls += 1
            state.nextNumber += 1
            return state.nextNumber
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let joined: TransferProgress?? = state.withLock { state in
                    guard !Task.isCancelled else { return nil }
                    var transfer = state.transfers[key] ?? {
                        state.nextNumber += 1
                        state.counts.transfers += 1
                        return Transfer(number: state.nextNumber)
                    }()
                    transfer.waiters[waiter] = Waiter(continuation: continuation, progress: progress)
                    if transfer.task == nil {
                        let number = transfer.number
                        transfer.task = Task { await self.copy(location, number: number) }
                    }
                    state.transfers[key] = transfer
                    if let latest = transfer.latest { state.progressTold.append(latest) }
                    return .some(transfer.latest)
                }
                guard let joined else { return continuation.resume(throwing: CancellationError()) }
                if let joined { progress?(joined) }
            }
        } onCancel: {
            let (left, stopped) = state.withLock { state -> (Waiter?, Task<Void, Never>?) in
                guard var transfer = state.transfers[key], let left = transfer.waiters.removeValue(forKey: waiter) else { return (nil, nil) }
                guard transfer.waiters.isEmpty else {
                    state.transfers[key] = transfer
                    return (left, nil)
                }
                // No one waits: the transfer stops, and a later fetch starts a new one.
                state.transfers[key] = nil
                return (left, transfer.task)
            }
            left?.continuation.resume(throwing: CancellationError())
            stopped?.cancel()
        }
    }

    /// Copies the original `location` names from the bucket into its local place: half of it
    /// told, the gate passed, then the whole written beside it and renamed into place with the
    /// modification time the library knows.
    private func copy(_ location: OriginalLocation, number: Int) async {
        let outcome: Result<Void, any Error>
        do {
            guard !state.withLock({ $0.unreachable }) else {
                throw LibraryError.unreadableFile(path: location.relativePath, reason: "the bucket cannot be reached (connection refused)")
            }
            let bytes = try Data(contentsOf: bucket.appendingPathComponent(location.relativePath))
            let target = location.root.appendingPathComponent(location.relativePath)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            let part = target.deletingLastPathComponent().appendingPathComponent(".part-\(number)-\(target.lastPathComponent)")
            // The first half written (readable as it arrives), told, held at the gate, then the rest.
            try bytes.prefix(bytes.count / 2).write(to: part)
            state.withLock { $0.parts[location.relativePath] = part }
            defer {
                state.withLock { if $0.parts[location.relativePath] == part { $0.parts[location.relativePath] = nil } }
                unlink(part.path) // gone already once renamed into place
            }
            tell(location, number: number, TransferProgress(received: Int64(bytes.count / 2), total: location.byteSize))
            try await passGate(number: number)
            try Task.checkCancellation()
            let handle = try FileHandle(forWritingTo: part)
            try handle.seekToEnd()
            try handle.write(contentsOf: bytes.suffix(from: bytes.count / 2))
            try handle.close()
            let seconds = location.modificationTime / 1_000_000_000, nanoseconds = location.modificationTime % 1_000_000_000
            var times = [timespec(tv_sec: Int(seconds), tv_nsec: Int(nanoseconds)), timespec(tv_sec: Int(seconds), tv_nsec: Int(nanoseconds))]
            guard utimensat(AT_FDCWD, part.path, &times, 0) == 0, rename(part.path, target.path) == 0 else {
                throw CocoaError(.fileWriteUnknown)
            }
            tell(location, number: number, TransferProgress(received: Int64(bytes.count), total: location.byteSize))
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        let waiters = state.withLock { state -> [Waiter] in
            switch outcome {
            case .success: state.counts.completed += 1
            case .failure(let error) where error is CancellationError: state.counts.cancelled += 1
            case .failure: state.counts.failed += 1
            }
            guard state.transfers[location.relativePath]?.number == number else { return [] }
            return state.transfers.removeValue(forKey: location.relativePath)?.waiters.values.map { $0 } ?? []
        }
        for waiter in waiters { waiter.continuation.resume(with: outcome) }
    }

    /// Tells every caller of transfer `number` how far it is.
    private func tell(_ location: OriginalLocation, number: Int, _ progress: TransferProgress) {
        let handlers = state.withLock { state -> [@Sendable (TransferProgress) -> Void] in
            guard var transfer = state.transfers[location.relativePath], transfer.number == number else { return [] }
            transfer.latest = progress
            state.transfers[location.relativePath] = transfer
            state.progressTold.append(contentsOf: transfer.waiters.values.map { _ in progress })
            return transfer.waiters.values.compactMap(\.progress)
        }
        for handler in handlers { handler(progress) }
    }

    /// Waits while the gate is closed; throws `CancellationError` when the transfer is stopped.
    private func passGate(number: Int) async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let wait = state.withLock { state -> Bool? in
                    guard !Task.isCancelled else { return nil }
                    guard state.gateClosed else { return false }
                    state.atGate[number] = continuation
                    state.counts.atGate += 1
                    return true
                }
                switch wait {
                case nil: continuation.resume(throwing: CancellationError())
                case false?: continuation.resume()
                case true?: break
                }
            }
        } onCancel: {
            let held = state.withLock { state in
                let held = state.atGate.removeValue(forKey: number)
                if held != nil { state.counts.atGate -= 1 }
                return held
            }
            held?.resume(throwing: CancellationError())
        }
    }
}

/// A library's originals kept in a folder bucket (``FolderBucketFetcher``): a scan walks and
/// reads the bucket folder, as a bucket store lists its objects; the library reads each original
/// from its place in `cache`, where the fetcher copies it when asked. Read-only.
struct FolderBucketStore: OriginalsStore {
    let base: LocalOriginalsStore
    let cache: URL
    let copier: FolderBucketFetcher

    init(bucket: URL, cache: URL) {
        base = LocalOriginalsStore(root: bucket)
        self.cache = cache
        copier = FolderBucketFetcher(bucket: bucket)
    }

    var isWritable: Bool { false }
    var fetcher: (any OriginalFetching)? { copier }

    func original(at path: String, byteSize: Int64, modificationTime: Int64) async throws -> OriginalLocation {
        OriginalLocation(root: cache, relativePath: path, byteSize: byteSize, modificationTime: modificationTime)
    }

    func stage(copying source: URL, named name: String) throws -> URL { throw LibraryError.invalidChange("a folder bucket is read-only") }
    func stage(_ data: Data, named name: String) throws -> URL { throw LibraryError.invalidChange("a folder bucket is read-only") }
    func publish(_ staged: URL, in folder: String, candidates: some Sequence<String>) throws -> StoredOriginal {
        throw LibraryError.invalidChange("a folder bucket is read-only")
    }
    func discard(_ staged: URL) {}
    func remove(at path: String) {}

    func walk() throws -> any ListingWalk { try base.walk() }
    func fingerprint(of file: FileEntry) async throws -> String { try await base.fingerprint(of: file) }
    func metadata(of file: FileEntry, reader: any MediaMetadataReading) async throws -> MediaMetadata {
        try await base.metadata(of: file, reader: reader)
    }
    func holdsFileNow(at path: String) -> Bool { base.holdsFileNow(at: path) }
    func removeLeftovers() { base.removeLeftovers() }
    func probeAccess() async -> (status: AuthorizationStatus, reason: String?) { await base.probeAccess() }
}

extension TestServer {
    /// A server over an indexed library of the corpus' camera photos and a video whose originals
    /// are all kept in a folder bucket (``FolderBucketStore``), none of them on this machine yet;
    /// the fetcher that brings them. `adding`: more files for the bucket's `DCIM` folder.
    static func remote(adding files: [URL] = []) async throws -> (server: TestServer, fetcher: FolderBucketFetcher) {
        let bucket = try await corpusLibrary()
        for file in files { try FileManager.default.copyItem(at: file, to: bucket.appendingPathComponent("DCIM/\(file.lastPathComponent)")) }
        let cache = bucket.deletingLastPathComponent().appendingPathComponent("cache", isDirectory: true)
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let store = FolderBucketStore(bucket: bucket, cache: cache)
        let library = try IndexedLibrary(root: bucket, databaseURL: indexURL(forLibrary: bucket), originals: store)
        try await library.scan()
        let server = try await TestServer(library: library, root: bucket, sessions: nil, signIn: PersonSignIn(), port: 0)
        return (server, store.copier)
    }
}

extension FolderBucketStore {
    /// A 640x480 JPEG without an EXIF thumbnail (a photo that gets a preview), made in `folder`.
    static func plainPhoto(in folder: URL) async throws -> URL {
        let photo = folder.appendingPathComponent("plain.jpg")
        let output = try await ToolRunner.fixture(.ffmpeg, arguments: [
            "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=640x480", "-frames:v", "1", photo.path,
        ])
        guard output.succeeded else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: output.standardError]) }
        return photo
    }
}
