import AssetsKit
import Foundation
import ImagePipeline
import Synchronization

/// Passes an original on while its transfer writes it (``ArrivingOriginal``): reads the file the
/// fetcher is writing (`OriginalFetching.arrivingFile(_:)`) one chunk per call of ``next()``,
/// waiting for the transfer's progress when it has read all there is. The last byte is held back
/// until the transfer has succeeded (the fetcher checked the version), so a reader never gets a
/// whole original that turned out another version. Released, it cancels its wait for the
/// transfer, which stops when no other caller waits.
final class ArrivingOriginalReader: Sendable {
    /// The most one ``next()`` gives.
    static let chunkBytes = 256 << 10

    private struct State {
        var file: ArrivingFile?
        var offset: Int64 = 0
        var seenTicks = 0
    }

    private let location: OriginalLocation
    private let fetcher: any OriginalFetching
    private let signal = TransferSignal()
    private let transfer: Task<Void, Never>
    private let state = Mutex(State())

    /// Starts the transfer of `location` through `fetcher` (or joins the one under way).
    init(location: OriginalLocation, fetcher: any OriginalFetching) {
        self.location = location
        self.fetcher = fetcher
        transfer = Task { [signal] in
            do {
                try await fetcher.fetch(location) { _ in signal.tick() }
                signal.finish(.success(()))
            } catch {
                signal.finish(.failure(error))
            }
        }
    }

    deinit {
        transfer.cancel()
    }

    /// Waits for the transfer's first news: bytes under way, or its end.
    /// - Throws: What the transfer threw, when it ended so.
    func awaitStart() async throws {
        let (_, outcome) = await waitForNews(after: 0)
        if case .failure(let error) = outcome { throw error }
    }

    /// The next chunk of the original; `nil` once all of it is given.
    /// - Throws: What the transfer threw; `LibraryError.originalUnavailable(file:)` when the
    ///   file is shorter than the original once the transfer ended.
    func next() async throws -> Data? {
        while true {
            let (ticks, outcome) = signal.now
            if case .failure(let error) = outcome { throw error }
            let done = outcome != nil
            let (file, offset) = try openFile(done: done)
            let limit = done ? location.byteSize : location.byteSize - 1
            if offset >= location.byteSize { return nil }
            // After the first bytes (given as soon as there are any), a chunk waits until it is
            // whole or the transfer ended: fewer, larger writes to the reader's client.
            if let file, offset < limit, done || offset == 0 || Self.size(of: file) - offset >= min(Int64(Self.chunkBytes), limit - offset) {
                let count = Int(min(Int64(Self.chunkBytes), limit - offset))
                let chunk = try await BlockingWork.run(.brief) { Self.read(file, at: offset, count: count) }
                if !chunk.isEmpty {
                    state.withLock { $0.offset += Int64(chunk.count) }
                    return chunk
                }
            }
            guard !done else { throw LibraryError.originalUnavailable(file: location.filename) }
            _ = await waitForNews(after: ticks)
        }
    }

    /// The file being read: the one the transfer writes, or, once it ended, the original in
    /// its local place (the same file, when it was open already).
    private func openFile(done: Bool) throws -> (ArrivingFile?, Int64) {
        let current = state.withLock { ($0.file, $0.offset) }
        if current.0 != nil { return current }
        var file = fetcher.arrivingFile(location)
        if file == nil, done {
            let local = try location.open()
            file = ArrivingFile(descriptor: dup(local.descriptor))
        }
        return state.withLock { state in
            if state.file == nil { state.file = file }
            return (state.file, state.offset)
        }
    }

    /// Waits until the transfer tells more than `ticks` progress reports or ends; cancelled, it
    /// stops the transfer (unless another caller waits for it) and returns at its end.
    private func waitForNews(after ticks: Int) async -> (Int, Result<Void, any Error>?) {
        await withTaskCancellationHandler {
            await signal.change(after: ticks)
        } onCancel: { [transfer] in
            transfer.cancel()
        }
    }

    /// The bytes written to `file` so far.
    private static func size(of file: ArrivingFile) -> Int64 {
        var status = stat()
        return fstat(file.descriptor, &status) == 0 ? Int64(status.st_size) : 0
    }

    private static func read(_ file: ArrivingFile, at offset: Int64, count: Int) -> Data {
        var data = Data(count: count)
        let read = data.withUnsafeMutableBytes { pread(file.descriptor, $0.baseAddress, count, off_t(offset)) }
        return read > 0 ? data.prefix(read) : Data()
    }
}

/// What a reader waits on: the number of progress reports of a transfer, and its outcome.
final class TransferSignal: Sendable {
    private struct State {
        var ticks = 0
        var outcome: Result<Void, any Error>?
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    /// The reports so far and the outcome, when the transfer ended.
    var now: (Int, Result<Void, any Error>?) { state.withLock { ($0.ticks, $0.outcome) } }

    /// One more progress report.
    func tick() {
        state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.ticks += 1
            defer { state.waiter = nil }
            return state.waiter
        }?.resume()
    }

    /// The transfer ended so.
    func finish(_ outcome: Result<Void, any Error>) {
        state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.outcome = outcome
            defer { state.waiter = nil }
            return state.waiter
        }?.resume()
    }

    /// Returns once there were more than `ticks` reports or the transfer ended (one waiter at a time).
    func change(after ticks: Int) async -> (Int, Result<Void, any Error>?) {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                guard state.ticks == ticks, state.outcome == nil else { return true }
                state.waiter = continuation
                return false
            }
            if ready { continuation.resume() }
        }
        return now
    }
}
