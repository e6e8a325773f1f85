import AssetsKit
import Foundation
@testable import IndexedLibrary
import Testing
import TestSupport

@Suite("The watcher keeps previews current")
struct WatcherPreviewTests {
    @Test("a photo copied into a watched library gets its preview in the background; deleted, it loses it", arguments: IndexEngine.allCases)
    func previewFollowsTheFile(_ engine: IndexEngine) async throws {
        let fixture = try await WatcherFixture(engine)
        defer { Task { await fixture.remove() } }
        try await fixture.start()
        @Sendable func reported(_ found: @escaping @Sendable (ScanSummary) -> Bool) -> Bool {
            fixture.log.all.contains { event in
                if case .rescanned(_, let summary) = event { return found(summary) }
                return false
            }
        }
        @Sendable func preview() async throws -> URL? {
            guard let asset = try await fixture.assets().first(where: { $0.filename == "new.png" }) else { return nil }
            return try await fixture.library.imageSource(of: asset).previewURL
        }
        try fixture.tree.copy("C_pngsuite/basn2c08.png", to: "2019/new.png")
        // A rescan asks for previews before it reports itself; they are made after it.
        try await fixture.eventually { reported { $0.added > 0 } }
        await fixture.library.backgroundPreviews.waitUntilIdle()
        let made = try #require(try await preview())
        #expect(FileManager.default.fileExists(atPath: made.path))
        try FileManager.default.removeItem(at: fixture.tree.url("2019/new.png"))
        try await fixture.eventually { reported { $0.removed > 0 } }
        await fixture.library.backgroundPreviews.waitUntilIdle()
        #expect(!FileManager.default.fileExists(atPath: made.path))
    }
}
