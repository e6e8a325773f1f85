/// A library that records its changes, so a client can ask what changed since it last looked,
/// also across restarts.
///
/// Ask a library for it through ``PhotoLibrary/changeHistory``; a library that keeps no
/// history (a folder library) answers `nil`.
public protocol LibraryChangeHistory: Sendable {
    /// Everything that changed after `token`, merged into one change: an asset inserted and
    /// removed again in that span is in neither set.
    func changes(since token: ChangeToken) async throws -> LibraryChange
}
