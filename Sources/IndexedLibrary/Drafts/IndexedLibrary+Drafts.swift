import AssetsKit
import Foundation

/// Drafts of picks: named lists of identifiers kept in the index (`draft`, `draft_item`).
extension IndexedLibrary {
    /// Saves picks under `name`, replacing a draft of that name. Identifiers are kept as given
    /// (either form, legacy URLs included) and in pick order; they are resolved when loaded.
    /// - Throws: `DraftError.invalidName(_:)` for a blank name.
    public func saveDraft(named name: String, identifiers: [AssetIdentifier]) async throws {
        guard !name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw DraftError.invalidName(name) }
        try await index.saveDraft(named: name, identifiers: identifiers.map(\.description), savedAt: now())
    }

    /// Loads a draft as the library is now: the picked assets still there in pick order (by
    /// local identifier), the legacy URLs that were migrated to local identifiers, and the
    /// picks whose assets were deleted or removed since (an asset in Recently Deleted counts
    /// as gone). Loading changes nothing stored: a restored asset is back in the draft; save
    /// the draft again to keep it as loaded.
    /// - Throws: `DraftError.notFound(_:)` when no draft has this name.
    public func loadDraft(named name: String) async throws -> DraftLoad {
        guard let texts = try await index.draftIdentifiers(named: name) else { throw DraftError.notFound(name) }
        let identifiers = texts.compactMap(AssetIdentifier.init(string:))
        let lookup = try await assets(withIdentifiers: identifiers)
        let missing = Set(lookup.missing)
        let migrated = identifiers.compactMap { identifier -> IdentifierMigration? in
            guard case .legacy(let legacy) = identifier, !missing.contains(identifier) else { return nil }
            return IdentifierMigration(legacy: legacy, local: legacy.localIdentifier)
        }
        return DraftLoad(name: name, assets: lookup.found, migrated: migrated, dropped: lookup.missing)
    }

    /// The names of the saved drafts, sorted.
    public func draftNames() async throws -> [String] {
        try await index.draftNames()
    }

    /// Deletes a draft (the assets it names stay in the library).
    /// - Throws: `DraftError.notFound(_:)` when no draft has this name.
    public func deleteDraft(named name: String) async throws {
        if try await !index.deleteDraft(named: name) { throw DraftError.notFound(name) }
    }
}
