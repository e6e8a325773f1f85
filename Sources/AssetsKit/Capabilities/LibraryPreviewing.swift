/// A library that makes small previews of its photos ahead of time, as PhotoKit makes
/// thumbnails on import, so that a grid cell's first image is at hand without decoding the
/// original. Ask a library for it through ``PhotoLibrary/previewing``.
///
/// Previews never hold up indexing or browsing: a library is listed as soon as it is indexed,
/// and a photo without its preview yet is shown from what it has (an embedded thumbnail, or a
/// render).
public protocol LibraryPreviewing: Sendable {
    /// Makes the previews the library lacks, newest first, and removes those no longer needed;
    /// returns when they are made. One photo whose preview cannot be made never stops the run:
    /// it is reported.
    /// - Parameter progress: Called as previews are made, for a progress bar.
    @discardableResult
    func makePreviews(progress: (@Sendable (PreviewProgress) -> Void)?) async throws -> PreviewSummary

    /// Makes the previews the `count` newest photos lacking one need, at once, and returns: a
    /// first screen's worth, so that a library just indexed opens as fast as one whose previews
    /// are all made (the rest follow in the background). Removes nothing.
    @discardableResult
    func makePreviews(ofNewest count: Int) async throws -> PreviewSummary

    /// Starts making the previews the library lacks in the background, newest first, and
    /// returns at once; asked again while a run is under way, the run takes in what changed.
    func makePreviewsInBackground()

    /// Stops making previews in the background; returns once it has stopped. What was made is kept.
    func stopMakingPreviews() async
}
