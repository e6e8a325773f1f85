import AssetsKit
import Foundation
@testable import IndexedLibrary
import Testing
import TestSupport

@Suite("The watcher keeps previews current")
struct WatcherPreviewTests {
    @Test("a photo copied into a watched library gets its preview; deleted, it loses it")
    func previewFollowsTheFile() async throws {
        let fixture = try await WatcherFixture()
        defer { Task { await fixture.remove() } }
        try await fixture.start()
        try fixture.tree.copy("C_pngsuite/basn2c08.png", to: "2019/new.png")
        @Sendable func preview() async throws -> URL? {
            guard let asset = try await fixture.assets().first(where: { $0.filename == "new.png" }) else { return nil }
            return try await fixture.library.imageSource(of: asset).previewURL
        }
        try await fixture.eventually { try await preview().map { FileManager.default.fileExists(atPath: $0.path) } == true }
        let made = try #require(try await preview())
        try FileManager.default.removeItem(at: fixture.tree.url("2019/new.png"))
        try await fixture.eventually { !FileManager.default.fileExists(atPath: made.path) }
    }
}
