import AssetsKit
import Foundation
#if canImport(Glibc)
import Glibc
import MediaProbing
#endif

/// The body of a ``LibraryWatcher``'s thread: it blocks in `poll(2)` on the inotify descriptor
/// and the stop pipe, with a timeout that is the next rescan's deadline, so it never spins.
///
/// Events feed a ``RescanSchedule``; when it is due, the loop hands the changed paths to
/// `requestRescan` (the rescans themselves run elsewhere, one at a time). Only events that
/// can change the library count: media files and folders, never hidden entries. When inotify
/// cannot be used, or stops being usable (the watch limit, the root folder gone), the loop
/// asks for a rescan every polling interval instead.
final class WatchLoop {
    private enum Mode {
        case watching(DirectoryWatches)
        case polling(next: ContinuousClock.Instant)
    }

    private let root: URL
    private let configuration: LibraryWatcher.Configuration
    private let stopSignal: Int32
    private let requestRescan: @Sendable (Set<String>) -> Void
    private let onReady: @Sendable () -> Void
    private let report: @Sendable (LibraryWatcherEvent) -> Void
    private var schedule: RescanSchedule
    private var mode: Mode

    /// - Parameters:
    ///   - stopSignal: The read end of a pipe; the loop ends when it becomes readable.
    ///   - requestRescan: Asks for a rescan, with the relative paths that changed.
    ///   - onReady: Called once the tree is watched (or polling is chosen).
    init(root: URL, configuration: LibraryWatcher.Configuration, stopSignal: Int32,
         requestRescan: @escaping @Sendable (Set<String>) -> Void, onReady: @escaping @Sendable () -> Void,
         report: @escaping @Sendable (LibraryWatcherEvent) -> Void) {
        self.root = root
        self.configuration = configuration
        self.stopSignal = stopSignal
        self.requestRescan = requestRescan
        self.onReady = onReady
        self.report = report
        schedule = RescanSchedule(quietPeriod: configuration.quietPeriod, maximumDelay: configuration.maximumDelay,
                                  openFileWait: configuration.openFileWait)
        mode = .polling(next: .now + configuration.pollingInterval)
    }

    /// Watches until the stop signal; closes the inotify descriptor before returning.
    ///
    /// Once the tree is watched, one rescan catches up with what changed before (while the
    /// library was closed, or while the watches were being added).
    func run() {
        start()
        onReady()
        requestRescan([""])
        while true {
            var descriptors = [pollfd(fd: stopSignal, events: Int16(POLLIN), revents: 0)]
            if case .watching(let watches) = mode {
                descriptors.append(pollfd(fd: watches.inotify.fileDescriptor, events: Int16(POLLIN), revents: 0))
            }
            let ready = poll(&descriptors, nfds_t(descriptors.count), Self.milliseconds(until: deadline))
            if ready < 0, errno != EINTR { break }
            if descriptors[0].revents != 0 { break }
            if descriptors.count > 1, descriptors[1].revents != 0, case .watching(let watches) = mode {
                handle(watches.inotify.readEvents())
            }
            fireIfDue()
        }
        if case .watching(let watches) = mode { watches.inotify.close() }
    }

    private var deadline: ContinuousClock.Instant? {
        switch mode {
        case .watching: schedule.deadline
        case .polling(let next): next
        }
    }

    private func start() {
        guard configuration.usesInotify else {
            return fallBack(because: configuration.pollingReason, rescanAtOnce: false)
        }
        let inotify: InotifyDescriptor
        do {
            inotify = try InotifyDescriptor()
        } catch {
            return fallBack(because: "\(error)", rescanAtOnce: false)
        }
        var watches = DirectoryWatches(root: root, inotify: inotify)
        do {
            try watches.watchTree(at: "")
        } catch {
            inotify.close()
            return fallBack(because: "\(error)", rescanAtOnce: false)
        }
        guard watches.rootWatch != nil else {
            inotify.close()
            return fallBack(because: "the library folder \(root.path) cannot be watched", rescanAtOnce: false)
        }
        mode = .watching(watches)
        report(.watching(folders: watches.paths.count))
    }

    private func fireIfDue() {
        let now = ContinuousClock.now
        switch mode {
        case .watching:
            if let due = schedule.deadline, now >= due { requestRescan(schedule.takeChanges()) }
        case .polling(let next):
            if now >= next {
                requestRescan([])
                mode = .polling(next: now + configuration.pollingInterval)
            }
        }
    }

    private func handle(_ events: [InotifyEvent]) {
        for event in events {
            guard case .watching(var watches) = mode else { return }
            let now = ContinuousClock.now
            if event.mask.contains(.queueOverflowed) {
                report(.overflowed)
                schedule.noteChange("", at: now)
                // Folders made while events were lost have no watch yet; adding one again is harmless.
                do { try watches.watchTree(at: "") } catch { return fallBack(because: "\(error)", closing: watches) }
                mode = .watching(watches)
                continue
            }
            let isRoot = event.watch == watches.rootWatch
            if event.mask.contains(.ignored) {
                watches.forget(event.watch)
                mode = .watching(watches)
                if isRoot { return fallBack(because: "the library folder \(root.path) was deleted or moved", closing: watches) }
                continue
            }
            // A folder's own deletion or move is also reported, with its name, by its parent.
            guard !event.name.isEmpty, !event.name.hasPrefix("."), let path = watches.path(of: event.name, in: event.watch) else {
                if isRoot, !event.mask.isDisjoint(with: [.deletedSelf, .movedSelf]) {
                    return fallBack(because: "the library folder \(root.path) was deleted or moved", closing: watches)
                }
                continue
            }
            if event.mask.contains(.isDirectory) {
                if !event.mask.isDisjoint(with: [.movedFrom, .deleted]) { watches.unwatchTree(at: path) }
                if !event.mask.isDisjoint(with: [.created, .movedTo]) {
                    do { try watches.watchTree(at: path) } catch { return fallBack(because: "\(error)", closing: watches) }
                }
                mode = .watching(watches)
                schedule.noteChange(path, at: now)
            } else if MediaFileType.mediaType(ofFileNamed: event.name) != nil {
                if event.mask.contains(.created) {
                    schedule.noteCreated(path, at: now)
                } else if !event.mask.isDisjoint(with: [.closedAfterWriting, .movedFrom, .deleted]) {
                    schedule.noteClosed(path, at: now)
                } else {
                    schedule.noteChange(path, at: now)
                }
            }
        }
    }

    /// Stops watching (if it was) and rescans every polling interval from now on.
    private func fallBack(because reason: String, closing watches: DirectoryWatches? = nil, rescanAtOnce: Bool = true) {
        watches?.inotify.close()
        _ = schedule.takeChanges()
        let now = ContinuousClock.now
        // Changes may have been missed while watching ended: the first rescan is at once.
        mode = .polling(next: rescanAtOnce ? now : now + configuration.pollingInterval)
        report(.polling(every: configuration.pollingInterval, reason: reason))
    }

    /// A `poll(2)` timeout: -1 (forever) without a deadline, else the milliseconds left, rounded up.
    private static func milliseconds(until deadline: ContinuousClock.Instant?) -> Int32 {
        guard let deadline else { return -1 }
        let left = deadline - .now
        guard left > .zero else { return 0 }
        return Int32(clamping: Int64(left.milliseconds.rounded(.up)))
    }
}
