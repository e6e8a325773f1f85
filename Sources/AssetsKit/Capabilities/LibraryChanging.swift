/// A library that takes changes: albums and folders, favourites, hiding, deletion (to Recently
/// Deleted, restored, purged) and, when ``acceptsImports``, new originals.
///
/// Ask a library for it through ``PhotoLibrary/changing``; a library that cannot be changed
/// (a folder library, an index over media that cannot be written) answers `nil`.
///
/// ```swift
/// guard let changing = library.changing else { throw LibraryError.readOnly(...) }
/// try await changing.performChanges([.createAlbum(title: "Trip")])
/// ```
public protocol LibraryChanging: Sendable {
    /// Whether ``ChangeRequest/importFile(_:intoAlbum:)`` and
    /// ``ChangeRequest/importData(_:filename:intoAlbum:)`` are taken: the library can store
    /// new originals.
    var acceptsImports: Bool { get }

    /// Applies change requests in one transaction (all or none) and reports what was created.
    /// - Returns: The new assets and collections, in request order, and the change token after.
    /// - Throws: ``LibraryError/invalidChange(_:)`` with the reason when a request is refused.
    @discardableResult
    func performChanges(_ requests: [ChangeRequest]) async throws -> ChangeResult
}
