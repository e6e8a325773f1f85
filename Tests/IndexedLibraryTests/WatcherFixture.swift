import AssetsKit
import Foundation
@testable import IndexedLibrary
import Synchronization
import TestSupport
import Testing

/// What a ``LibraryWatcher`` reported, in order; each report wakes whoever waits on ``updates()``.
final class WatcherLog: Sendable {
    private let events = Mutex<[LibraryWatcherEvent]>([])
    private let waiters = Mutex<[UUID: AsyncStream<Void>.Continuation]>([:])

    func record(_ event: LibraryWatcherEvent) {
        events.withLock { $0.append(event) }
        for waiter in waiters.withLock({ Array($0.values) }) { waiter.yield() }
    }

    var all: [LibraryWatcherEvent] { events.withLock { $0 } }

    /// The changed paths of each rescan the watcher ran (`[""]` for the whole tree).
    var rescans: [[String]] {
        all.compactMap { event in
            if case .rescanned(let paths, _) = event { return paths }
            return nil
        }
    }

    /// The changed paths of each rescan caused by changes: all but the one at start.
    var rescansForChanges: [[String]] {
        rescans.filter { $0 != [""] }
    }

    /// One element after each report from now on.
    func updates() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let key = UUID()
        waiters.withLock { $0[key] = continuation }
        continuation.onTermination = { [weak self] _ in _ = self?.waiters.withLock { $0.removeValue(forKey: key) } }
        return stream
    }
}

/// A scanned library in a temporary folder with a ``LibraryWatcher`` on it.
struct WatcherFixture {
    let tree: TemporaryTree
    let library: IndexedLibrary
    let watcher: LibraryWatcher
    let log = WatcherLog()

    /// A library holding two camera photos in `2019/`, scanned, with a watcher not started yet.
    init(_ engine: IndexEngine = .sqlite, configuration: LibraryWatcher.Configuration = LibraryWatcher.Configuration()) async throws {
        tree = try TemporaryTree(engine: engine)
        try tree.copy("A_camera_exif/jhead__sony.jpg", to: "2019/sony.jpg")
        try tree.copy("A_camera_exif/jhead__olympus.jpg", to: "2019/olympus.jpg")
        library = try await tree.openLibrary()
        try await library.scan()
        watcher = LibraryWatcher(library: library, configuration: configuration) { [log] in log.record($0) }
    }

    /// Starts the watcher and waits until its first rescan, which catches up with what
    /// changed before, is done: later rescans are caused by the test's changes.
    func start() async throws {
        let updates = log.updates()
        await watcher.start()
        #expect(log.all.contains { $0.isStarted })
        for await _ in updates where !log.rescans.isEmpty { return }
    }

    /// Stops the watcher and removes the folder.
    func remove() async {
        await watcher.stop()
        tree.remove()
    }

    /// The camera roll.
    func assets() async throws -> [Asset] {
        try await collect(library.assets(in: SmartAlbum.all.collectionIdentifier, options: FetchOptions()))
    }

    func count() async throws -> Int {
        try await library.assetCount(in: SmartAlbum.all.collectionIdentifier, filter: .all)
    }

    /// Returns once `condition` holds, checking it after each change of the library and each
    /// report of the watcher. Throws ``HangGuard/Expired`` if it does not hold after `limit`,
    /// a hang guard far beyond the second or so it takes.
    func eventually(limit: Duration = HangGuard.defaultLimit, sourceLocation: SourceLocation = #_sourceLocation,
                    _ condition: @escaping @Sendable () async throws -> Bool) async throws {
        let changes = library.changes()
        let reports = log.updates()
        if try await condition() { return }
        let held = try await withThrowingTaskGroup(of: Bool?.self) { group in
            group.addTask {
                for await _ in changes where try await condition() { return true }
                return nil
            }
            group.addTask {
                for await _ in reports where try await condition() { return true }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return false
            }
            defer { group.cancelAll() }
            while let result = try await group.next() {
                if let result { return result }
            }
            return false
        }
        if !held { throw HangGuard.Expired(what: "the condition at \(sourceLocation)", limit: limit) }
    }
}

extension LibraryWatcherEvent {
    /// Whether this says the tree is watched or polled.
    var isStarted: Bool {
        switch self {
        case .watching, .polling: true
        default: false
        }
    }
}
