/// A library that keeps drafts of picks: named lists of identifiers, reloaded as the library
/// is now (legacy URLs migrated, assets gone since dropped).
///
/// Ask a library for it through ``PhotoLibrary/drafts``; a library with nowhere to keep them
/// (a folder library, which writes nothing) answers `nil`.
public protocol LibraryDrafts: Sendable {
    /// Saves picks under `name`, replacing a draft of that name; identifiers are kept as given
    /// (either form) and in pick order.
    /// - Throws: ``DraftError/invalidName(_:)`` for a blank name.
    func saveDraft(named name: String, identifiers: [AssetIdentifier]) async throws
    /// Loads a draft as the library is now; loading changes nothing stored.
    /// - Throws: ``DraftError/notFound(_:)`` when no draft has this name.
    func loadDraft(named name: String) async throws -> DraftLoad
    /// The names of the saved drafts, sorted.
    func draftNames() async throws -> [String]
    /// Deletes a draft (the assets it names stay in the library).
    /// - Throws: ``DraftError/notFound(_:)`` when no draft has this name.
    func deleteDraft(named name: String) async throws
}
