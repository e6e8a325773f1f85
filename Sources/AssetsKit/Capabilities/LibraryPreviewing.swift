/// A library that makes small previews of its photos ahead of time, as PhotoKit makes
/// thumbnails on import, so that a grid cell's first image is at hand without decoding the
/// original. Ask a library for it through ``PhotoLibrary/previewing``.
public protocol LibraryPreviewing: Sendable {
    /// Makes the previews the library lacks, newest first, and removes those of assets no longer
    /// in it. One photo whose preview cannot be made never stops the run: it is reported.
    /// - Parameter progress: Called as previews are made, for a progress bar.
    @discardableResult
    func makePreviews(progress: (@Sendable (PreviewProgress) -> Void)?) async throws -> PreviewSummary
}
