import AssetsKit
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Keeps an ``IndexedLibrary`` in line with its folder while it is open: files added, changed,
/// moved or removed by others appear in the library (and its ``IndexedLibrary/changes()``
/// stream) within about a second, without anyone asking for a scan.
///
/// The tree is watched with Linux inotify, every folder of it but hidden ones (so an index kept
/// in a hidden folder of the library never wakes it). A burst of changes — a copy of 200 photos — is
/// debounced into a few incremental rescans (see ``Configuration``), and a file still being
/// written is waited for. When inotify is unavailable or the system's watch limit is reached,
/// the tree is rescanned periodically instead, and a ``LibraryWatcherEvent/polling(every:reason:)``
/// event says why. Rescans run one at a time; changes that come during one cause one more.
///
/// ```swift
/// let watcher = LibraryWatcher(library: library) { event in logger.info("\(event)") }
/// await watcher.start()
/// // ...
/// await watcher.stop()
/// ```
public final class LibraryWatcher: Sendable {
    /// The folder watched.
    public let rootURL: URL
    public let configuration: Configuration
    private let rescan: @Sendable () async throws -> ScanSummary
    private let whenStopped: @Sendable () async -> Void
    private let report: @Sendable (LibraryWatcherEvent) -> Void
    private let state = Mutex<State>(.idle)
    /// The paths changed since the rescan in progress began, waiting for the next one.
    private let waitingPaths = Mutex<Set<String>?>(nil)

    private enum State {
        case idle
        case running(Running)
        case stopped
    }

    /// What a started watcher holds until it stops.
    private struct Running: Sendable {
        /// The stop pipe's ends: a byte written to `stopWriteEnd` wakes the thread's `poll(2)`.
        let stopWriteEnd: Int32, stopReadEnd: Int32
        let threadEnded: AsyncStream<Void>
        let rescanRequests: AsyncStream<Void>.Continuation
        let rescans: Task<Void, Never>
    }

    /// A watcher that rescans `library` when its folder changes, then has the previews of new
    /// and changed photos made and those of removed ones dropped in the background
    /// (``IndexedLibrary/makePreviewsInBackground()``: the next rescan never waits for them).
    /// Nothing happens until ``start()``; ``stop()`` stops the previews too.
    /// - Parameters:
    ///   - library: The library to keep in line with its folder.
    ///   - configuration: The debouncing and polling times.
    ///   - report: Told what the watcher does (watching, polling and why, each rescan), on any thread.
    public convenience init(library: IndexedLibrary, configuration: Configuration = Configuration(),
                            report: @escaping @Sendable (LibraryWatcherEvent) -> Void = { _ in }) {
        let firstRescan = FirstRescan()
        self.init(root: library.rootURL, configuration: configuration, rescan: {
            let summary = try await library.scan()
            // The first rescan catches up with an index made without previews; later ones ask
            // for previews only when files came, changed or went.
            if firstRescan.take() || summary.added + summary.updated + summary.removed + summary.moved > 0 {
                library.makePreviewsInBackground()
            }
            return summary
        }, whenStopped: {
            await library.stopMakingPreviews()
        }, report: report)
    }

    /// A watcher of `root` that calls `rescan` for each rescan, and `whenStopped` once it has stopped.
    init(root: URL, configuration: Configuration, rescan: @escaping @Sendable () async throws -> ScanSummary,
         whenStopped: @escaping @Sendable () async -> Void = {}, report: @escaping @Sendable (LibraryWatcherEvent) -> Void) {
        rootURL = root.standardizedFileURL
        self.configuration = configuration
        self.rescan = rescan
        self.whenStopped = whenStopped
        self.report = report
    }

    /// Starts watching on a thread of its own and returns once the tree's folders are watched
    /// (reported as ``LibraryWatcherEvent/watching(folders:)``, or
    /// ``LibraryWatcherEvent/polling(every:reason:)`` when they cannot be): from then on no
    /// change is missed. A first rescan then catches up with changes made before. The watcher
    /// runs until ``stop()``. Does nothing if the watcher was started before.
    public func start() async {
        guard let ready = launch() else { return }
        for await _ in ready {}
    }

    /// Starts the thread and the rescans; returns a stream that ends once the tree is watched,
    /// or `nil` when the watcher was started before.
    private func launch() -> AsyncStream<Void>? {
        state.withLock { state -> AsyncStream<Void>? in
            guard case .idle = state else { return nil }
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else {
                report(.rescanFailed("cannot make the watcher's stop pipe: \(String(cString: strerror(errno)))"))
                state = .stopped
                return nil
            }
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            let (requests, requestContinuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
            let rescans = Task { [self] in
                for await _ in requests {
                    guard !Task.isCancelled else { break }
                    let paths = waitingPaths.withLock { waiting in
                        defer { waiting = nil }
                        return waiting ?? []
                    }
                    do {
                        report(.rescanned(changedPaths: paths.sorted(), summary: try await rescan()))
                    } catch {
                        // Stopping cancels a rescan in progress: that is no failure.
                        if Task.isCancelled { break }
                        report(.rescanFailed("\(error)"))
                    }
                }
            }
            let (ready, readyContinuation) = AsyncStream<Void>.makeStream()
            let (threadEnded, endContinuation) = AsyncStream<Void>.makeStream()
            let requestRescan: @Sendable (Set<String>) -> Void = { [self] paths in
                waitingPaths.withLock { $0 = ($0 ?? []).union(paths) }
                requestContinuation.yield()
            }
            let thread = Thread { [rootURL, configuration, report, stopSignal = ends[0]] in
                WatchLoop(root: rootURL, configuration: configuration, stopSignal: stopSignal, requestRescan: requestRescan,
                          onReady: { readyContinuation.finish() }, report: report).run()
                readyContinuation.finish()
                endContinuation.finish()
            }
            thread.name = "assets-picker library watcher"
            thread.start()
            state = .running(Running(stopWriteEnd: ends[1], stopReadEnd: ends[0], threadEnded: threadEnded,
                                     rescanRequests: requestContinuation, rescans: rescans))
            return ready
        }
    }

    /// Stops watching: wakes and ends the thread, closes its descriptors and cancels a rescan in
    /// progress (the index stays consistent: a scan writes in transactions). Returns once all
    /// of that is done; reports ``LibraryWatcherEvent/stopped``. Calling it again does nothing.
    public func stop() async {
        let running: Running? = state.withLock { state in
            defer { state = .stopped }
            if case .running(let running) = state { return running }
            return nil
        }
        guard let running else { return }
        var byte: UInt8 = 1
        _ = write(running.stopWriteEnd, &byte, 1)
        for await _ in running.threadEnded {}
        close(running.stopWriteEnd)
        close(running.stopReadEnd)
        running.rescanRequests.finish()
        running.rescans.cancel()
        await running.rescans.value
        await whenStopped()
        report(.stopped)
    }
}

/// Whether a watcher's first rescan is still to come: that one makes the previews whatever it finds.
private final class FirstRescan: Sendable {
    private let pending = Atomic(true)

    /// `true` once, for the first rescan.
    func take() -> Bool {
        pending.exchange(false, ordering: .relaxed)
    }
}
