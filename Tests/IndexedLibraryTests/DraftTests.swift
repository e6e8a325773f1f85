import AssetsKit
import FolderLibrary
import Foundation
@testable import IndexedLibrary
import Testing

@Suite("Drafts of picks")
struct DraftTests {
    @Test("legacy URLs from a folder library migrate on load; a deleted pick is dropped and reported; order survives a reopen", arguments: IndexEngine.allCases)
    func legacyDraft(_ engine: IndexEngine) async throws {
        let fixture = try await ChangeFixture(engine)
        defer { fixture.remove() }
        let folder = FolderLibrary(root: fixture.tree.root)
        let legacy = try await collect(folder.assets(in: FolderLibrary.cameraRollID, options: FetchOptions(sortOrder: .oldestFirst)))
        #expect(legacy.count == 4)
        let picks = [legacy[2].id, legacy[0].id, legacy[3].id, legacy[1].id]
        #expect(picks.allSatisfy { if case .legacy = $0 { true } else { false } })
        try await fixture.library.saveDraft(named: "trip", identifiers: picks)
        let deleted = picks[2]
        try await fixture.library.performChanges([.delete([deleted])])

        let reopened = try await fixture.tree.openLibrary()
        let load = try await reopened.loadDraft(named: "trip")
        let kept = picks.filter { $0 != deleted }
        #expect(load.assets.map(\.id) == kept.map { .local($0.localIdentifier) })
        #expect(load.assets.map(\.filename) == kept.map { id in legacy.first { $0.id == id }!.filename })
        #expect(load.migrated.map(\.local) == kept.map(\.localIdentifier))
        #expect(load.migrated.map { AssetIdentifier.legacy($0.legacy) } == kept)
        #expect(load.dropped == [deleted])
        #expect(try await reopened.draftNames() == ["trip"])
    }

    @Test("local identifiers load as saved; saving again replaces; drafts are listed and deleted", arguments: IndexEngine.allCases)
    func saveReplaceDelete(_ engine: IndexEngine) async throws {
        let fixture = try await ChangeFixture(engine)
        defer { fixture.remove() }
        let library = fixture.library
        let sony = try await fixture.asset("sony.jpg"), clip = try await fixture.asset("clip.mp4")
        try await library.saveDraft(named: "b", identifiers: [sony.id])
        try await library.saveDraft(named: "a", identifiers: [clip.id, sony.id])
        try await library.saveDraft(named: "b", identifiers: [clip.id])
        #expect(try await library.draftNames() == ["a", "b"])
        let a = try await library.loadDraft(named: "a")
        #expect(a.assets.map(\.id) == [clip.id, sony.id] && a.migrated.isEmpty && a.dropped.isEmpty)
        #expect(try await library.loadDraft(named: "b").assets.map(\.id) == [clip.id])

        try await library.performChanges([.delete([sony.id])])
        try await library.performChanges([.purge([sony.id])])
        #expect(try await library.loadDraft(named: "a").dropped == [sony.id])
        try await library.deleteDraft(named: "a")
        #expect(try await library.draftNames() == ["b"])
        await #expect(throws: DraftError.notFound("a")) { try await library.loadDraft(named: "a") }
        await #expect(throws: DraftError.notFound("a")) { try await library.deleteDraft(named: "a") }
        await #expect(throws: DraftError.invalidName(" ")) { try await library.saveDraft(named: " ", identifiers: []) }
    }
}
