/// A library that answers provisionally while it reads metadata in the background, and can say
/// when that reading is done (a folder library reads a large folder's files after its first
/// answer).
///
/// Ask a library for it through ``PhotoLibrary/backgroundSettling``; a library whose answers
/// are exact from the start (an index) answers `nil`.
public protocol BackgroundSettling: Sendable {
    /// Returns once nothing is being read in the background: from then on, until the storage
    /// changes, every answer is exact.
    func settled() async
}
