import AssetsKit
import Foundation
import IndexedLibrary
import Synchronization
import Testing

/// What an indexed library answers when asked what it can do, as a caller holding
/// `any PhotoLibrary` asks it: no cast, no backend name.
@Suite("An indexed library's capabilities")
struct CapabilityTests {
    @Test("over writable originals: it is scanned, takes changes and imports, keeps history and drafts, can be watched, reports no skipped files", arguments: IndexEngine.allCases)
    func writable(_ engine: IndexEngine) async throws {
        let tree = try RescanTests.makeTree(engine: engine)
        defer { tree.remove() }
        let library: any PhotoLibrary = try await tree.openLibrary()
        let indexing = try #require(library.indexing)
        #expect(try await !indexing.hasCompletedScan())
        #expect(try await indexing.scan(progress: nil).added == 4)
        #expect(try await indexing.hasCompletedScan())
        #expect(library.skippedFileReport == nil)
        #expect(library.backgroundSettling == nil)

        let changing = try #require(library.changing)
        #expect(changing.acceptsImports)
        let history = try #require(library.changeHistory)
        let start = try await history.changes(since: ChangeToken(0)).token
        let album = try await changing.performChanges([.createAlbum(title: "Trip")]).insertedCollections[0]
        #expect(try await history.changes(since: start).collections[album]?.collectionChanged == true)

        let drafts = try #require(library.drafts)
        let sony = try #require(try await collect(library.assets(in: SmartAlbum.all.collectionIdentifier, options: FetchOptions()))
            .first { $0.filename == "sony.jpg" })
        try await drafts.saveDraft(named: "picks", identifiers: [sony.id])
        #expect(try await drafts.loadDraft(named: "picks").assets.map(\.id.uuid) == [sony.id.uuid])

        let events = Mutex<[LibraryWatchEvent]>([])
        let watch = try await #require(library.watching).startWatching { event in events.withLock { $0.append(event) } }
        await watch.stop()
        // The first event says what is watched (or polled, where inotify is unavailable); the last, that it stopped.
        let reported = events.withLock { $0 }
        #expect(reported.first?.description.contains(tree.root.lastPathComponent) == true, "\(reported)")
        #expect(reported.last == LibraryWatchEvent(.routine, "stopped watching"))
    }

    @Test("over originals that cannot be written: no changes or imports; scans, history and drafts still work, kept in the index", arguments: IndexEngine.allCases)
    func readOnlyOriginals(_ engine: IndexEngine) async throws {
        let tree = try RescanTests.makeTree(engine: engine)
        defer { tree.remove() }
        let library: any PhotoLibrary = try await tree.openLibrary(
                                                           originals: ReadOnlyOriginals(root: tree.root))
        try await #require(library.indexing).scan(progress: nil)
        #expect(library.changing == nil)
        #expect(library.watching != nil)
        let history = try #require(library.changeHistory)
        #expect(try await history.changes(since: ChangeToken(0)).insertedAssets.count == 4)
        let drafts = try #require(library.drafts)
        try await drafts.saveDraft(named: "picks", identifiers: [])
        #expect(try await drafts.draftNames() == ["picks"])
    }
}
